// mbarrier-preceding-phase-stays-complete-during-arrivals
// 9.7.13.15.16: the immediately preceding phase tests True while arrivals of the current phase are still pending.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    if (TID != 0) return;
    __shared__ u64 bar;
    unsigned b = sa(&bar);
    mb_init(b, 3);
    mb_arrive_n(b, 3);
    out[0] = mb_test_par(b, 0);
    u64 s = mb_arrive_n(b, 2);
    out[1] = mb_test_par(b, 0);
    out[2] = mb_test_par(b, 1);
    out[3] = mb_test(b, s);
}
