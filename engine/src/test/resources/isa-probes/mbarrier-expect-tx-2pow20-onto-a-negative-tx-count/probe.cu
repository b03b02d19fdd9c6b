// mbarrier-expect-tx-2pow20-onto-a-negative-tx-count
// 9.7.13.15.2/5.1: the range bounds the tx-count, not the operand: -5 + 2^20 = 2^20 - 5 is within -(2^20 - 1)..2^20 - 1.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    if (TID != 0) return;
    __shared__ u64 bar;
    unsigned b = sa(&bar);
    mb_init(b, 1);
    mb_complete_tx(b, 5);
    mb_expect_tx(b, 1048576);
    mb_arrive(b);
    out[0] = mb_test_par(b, 0);
    mb_complete_tx(b, 1048571);
    out[1] = mb_test_par(b, 0);
}
