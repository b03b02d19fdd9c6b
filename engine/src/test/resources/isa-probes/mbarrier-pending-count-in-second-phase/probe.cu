// mbarrier-pending-count-in-second-phase
// 9.7.13.15.6/17: on completion pending is reinitialized to the expected count; a .noComplete arrive in phase 1 reports that count.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    if (TID != 0) return;
    __shared__ u64 bar;
    unsigned b = sa(&bar);
    mb_init(b, 2);
    mb_arrive_n(b, 2);
    out[0] = mb_test_par(b, 0);
    u64 s; asm volatile("mbarrier.arrive.noComplete.shared::cta.b64 %0, [%1], 1;" : "=l"(s) : "r"(b) : "memory");
    unsigned c; asm volatile("mbarrier.pending_count.b64 %0, %1;" : "=r"(c) : "l"(s));
    out[1] = c;
}
