// mbarrier-pending-count-of-nocomplete
// 9.7.13.15.17: pending_count gives the pending count before the arrive-on of a .noComplete state.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    if (TID != 0) return;
    __shared__ u64 bar;
    unsigned b = sa(&bar);
    mb_init(b, 4);
    u64 s0, s1; unsigned c0, c1;
    asm volatile("mbarrier.arrive.noComplete.shared::cta.b64 %0, [%1], 1;" : "=l"(s0) : "r"(b) : "memory");
    asm volatile("mbarrier.pending_count.b64 %0, %1;" : "=r"(c0) : "l"(s0));
    asm volatile("mbarrier.arrive.noComplete.shared::cta.b64 %0, [%1], 2;" : "=l"(s1) : "r"(b) : "memory");
    asm volatile("mbarrier.pending_count.b64 %0, %1;" : "=r"(c1) : "l"(s1));
    u64 s2 = mb_arrive(b);
    out[0] = c0; out[1] = c1; out[2] = mb_test(b, s2);
}
