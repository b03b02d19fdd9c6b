// mbarrier-complete-tx-in-next-phase-before-observation
// 9.7.13.15.4: only an arrive-on needs the previous phase observed first; expect-tx and complete-tx are not arrive-on operations.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    if (TID != 0) return;
    __shared__ u64 bar;
    unsigned b = sa(&bar);
    mb_init(b, 1);
    mb_arrive(b);
    mb_expect_tx(b, 16);
    mb_complete_tx(b, 16);
    out[0] = mb_test_par(b, 0);
    mb_arrive(b);
    out[1] = mb_test_par(b, 1);
}
