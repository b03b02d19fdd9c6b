// mbarrier-tx-completes-phase-after-arrivals
// 9.7.13.15.5.2/6: complete-tx that brings tx-count to zero after all arrivals completes the phase; pending is reset.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    if (TID != 0) return;
    __shared__ u64 bar;
    unsigned b = sa(&bar);
    mb_init(b, 1);
    mb_expect_tx(b, 16);
    u64 s = mb_arrive(b);
    out[0] = mb_test(b, s);
    mb_complete_tx(b, 16);
    out[1] = mb_test(b, s);
    s = mb_arrive(b);
    out[2] = mb_test(b, s);
}
