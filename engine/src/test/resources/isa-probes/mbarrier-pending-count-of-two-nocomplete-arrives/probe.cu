// mbarrier-pending-count-of-two-nocomplete-arrives
// 9.7.13.15.17/13: each .noComplete state gives the pending count before its own arrive-on (5, then 5 - 2).
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    if (TID != 0) return;
    __shared__ u64 bar;
    unsigned b = sa(&bar);
    mb_init(b, 5);
    u64 s1, s2; asm volatile("mbarrier.arrive.noComplete.shared::cta.b64 %0, [%1], 2;" : "=l"(s1) : "r"(b) : "memory");
    asm volatile("mbarrier.arrive.noComplete.shared::cta.b64 %0, [%1], 1;" : "=l"(s2) : "r"(b) : "memory");
    unsigned c1; asm volatile("mbarrier.pending_count.b64 %0, %1;" : "=r"(c1) : "l"(s1));
    unsigned c2; asm volatile("mbarrier.pending_count.b64 %0, %1;" : "=r"(c2) : "l"(s2));
    out[0] = c1;
    out[1] = c2;
    mb_arrive_n(b, 2);
    out[2] = mb_test(b, s2);
}
