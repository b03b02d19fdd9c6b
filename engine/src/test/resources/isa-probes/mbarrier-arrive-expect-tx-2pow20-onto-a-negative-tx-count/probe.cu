// mbarrier-arrive-expect-tx-2pow20-onto-a-negative-tx-count
// 9.7.13.15.13/2: arrive.expect_tx's expect-tx of 2^20 on a tx-count of -5 stays within range; the arrive-on then leaves tx 2^20 - 5 outstanding.
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
    u64 s = mb_arrive_tx(b, 1048576);
    out[0] = mb_test(b, s);
    mb_complete_tx(b, 1048571);
    out[1] = mb_test(b, s);
}
