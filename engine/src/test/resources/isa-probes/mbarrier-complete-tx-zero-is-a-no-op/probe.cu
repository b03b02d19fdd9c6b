// mbarrier-complete-tx-zero-is-a-no-op
// 9.7.13.15.5.2: complete-tx decrements tx-count by completeCount (0 changes nothing and completes nothing).
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    if (TID != 0) return;
    __shared__ u64 bar;
    unsigned b = sa(&bar);
    mb_init(b, 2);
    mb_expect_tx(b, 8);
    mb_arrive(b);
    mb_complete_tx(b, 0);
    out[0] = mb_test_par(b, 0);
    mb_arrive(b);
    out[1] = mb_test_par(b, 0);
    mb_complete_tx(b, 8);
    out[2] = mb_test_par(b, 0);
}
