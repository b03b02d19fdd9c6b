// mbarrier-pending-count-after-its-phase-completed
// 9.7.13.15.17: count is the pending count prior to the arrive-on the state came from; the phase completing later does not change it.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    if (TID != 0) return;
    __shared__ u64 bar;
    unsigned b = sa(&bar);
    mb_init(b, 3);
    u64 s; asm volatile("mbarrier.arrive.noComplete.shared::cta.b64 %0, [%1], 1;" : "=l"(s) : "r"(b) : "memory");
    unsigned c0; asm volatile("mbarrier.pending_count.b64 %0, %1;" : "=r"(c0) : "l"(s));
    out[0] = c0;
    mb_arrive_n(b, 2);
    out[1] = mb_test(b, s);
    unsigned c1; asm volatile("mbarrier.pending_count.b64 %0, %1;" : "=r"(c1) : "l"(s));
    out[2] = c1;
}
