// mbarrier-arrive-while-only-tx-is-outstanding
// 9.7.13.15.2/6: pending arrivals reached 0 with tx outstanding, so the phase is still current; one more arrive-on takes pending below its minimum 0.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    if (TID != 0) return;
    __shared__ u64 bar;
    unsigned b = sa(&bar);
    mb_init(b, 1);
    mb_arrive_tx(b, 16);
    mb_arrive(b);
    out[0] = 1;
}
