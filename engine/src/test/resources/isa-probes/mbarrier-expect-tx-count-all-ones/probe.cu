// mbarrier-expect-tx-count-all-ones
// 9.7.13.15.11/2: txCount is a 32-bit unsigned operand; 0xffffffff takes tx-count out of -(2^20 - 1)..2^20 - 1.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out, unsigned n)
{
    if (TID != 0) return;
    __shared__ u64 bar;
    unsigned b = sa(&bar);
    mb_init(b, 2);
    mb_expect_tx(b, n);
    out[0] = 1;
}
