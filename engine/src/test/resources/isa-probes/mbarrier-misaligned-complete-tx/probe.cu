// mbarrier-misaligned-complete-tx
// 9.7.13.15.12/1: complete_tx's addr must be 8-byte aligned like every mbarrier address.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    if (TID != 0) return;
    __shared__ u64 bars[2];
    unsigned b = sa(&bars[0]);
    mb_init(b, 1);
    mb_complete_tx(b + 4, 16);
    out[0] = 1;
}
