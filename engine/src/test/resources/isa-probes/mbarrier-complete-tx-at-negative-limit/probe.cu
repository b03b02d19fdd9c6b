// mbarrier-complete-tx-at-negative-limit
// 9.7.13.15.2: tx-count may reach -(2^20 - 1); expect-tx of as much brings it back to zero.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    if (TID != 0) return;
    __shared__ u64 bar;
    unsigned b = sa(&bar);
    mb_init(b, 1);
    mb_complete_tx(b, (1u << 20) - 1);
    out[0] = mb_test_par(b, 0);
    mb_arrive_tx(b, (1u << 20) - 1);
    out[1] = mb_test_par(b, 0);
}
