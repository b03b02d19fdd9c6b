// mbarrier-arrive-drop-nocomplete-with-count-pending-count
// 9.7.13.15.14/17: arrive_drop.noComplete with count 2 returns the pending count before its arrive-on; later phases expect count - 2.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    if (TID != 0) return;
    __shared__ u64 bar;
    unsigned b = sa(&bar);
    mb_init(b, 5);
    u64 s; asm volatile("mbarrier.arrive_drop.noComplete.shared::cta.b64 %0, [%1], 2;" : "=l"(s) : "r"(b) : "memory");
    unsigned c; asm volatile("mbarrier.pending_count.b64 %0, %1;" : "=r"(c) : "l"(s));
    out[0] = c;
    mb_arrive_n(b, 3);
    out[1] = mb_test_par(b, 0);
    mb_arrive_n(b, 3);
    out[2] = mb_test_par(b, 1);
}
