// mbarrier-complete-tx-before-expect
// 9.7.13.15.2: tx-count may be negative down to -(2^20 - 1); arrive.expect_tx does expect-tx before arrive-on.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    if (TID != 0) return;
    __shared__ u64 bar;
    unsigned b = sa(&bar);
    mb_init(b, 1);
    mb_complete_tx(b, 512);
    out[0] = mb_test_par(b, 0);
    mb_arrive_tx(b, 512);
    out[1] = mb_try_par(b, 0);
}
