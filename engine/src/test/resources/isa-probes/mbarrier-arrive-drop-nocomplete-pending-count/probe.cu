// mbarrier-arrive-drop-nocomplete-pending-count
// 9.7.13.15.14/17: arrive_drop.noComplete returns a state pending_count can read; the drop lowers later phases' expected count.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    if (TID != 0) return;
    __shared__ u64 bar;
    unsigned b = sa(&bar);
    mb_init(b, 3);
    u64 s0; unsigned c0;
    asm volatile("mbarrier.arrive_drop.noComplete.shared::cta.b64 %0, [%1], 1;" : "=l"(s0) : "r"(b) : "memory");
    asm volatile("mbarrier.pending_count.b64 %0, %1;" : "=r"(c0) : "l"(s0));
    u64 s1 = mb_arrive_n(b, 2);
    out[0] = c0;
    out[1] = mb_test(b, s1);
    u64 s2 = mb_arrive_n(b, 1);
    out[2] = mb_test(b, s2);
    u64 s3 = mb_arrive_n(b, 1);
    out[3] = mb_test(b, s3);
}
