// mbarrier-arrive-expect-tx-zero-completes
// 9.7.13.15.5.1/6: expect-tx of 0 leaves tx-count 0, so the arrive-on alone completes the phase.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    if (TID != 0) return;
    __shared__ u64 bar;
    unsigned b = sa(&bar);
    mb_init(b, 1);
    u64 s = mb_arrive_tx(b, 0);
    out[0] = mb_test(b, s);
}
