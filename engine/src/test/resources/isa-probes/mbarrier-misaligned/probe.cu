// mbarrier-misaligned
// 9.7.13.15.1: an mbarrier object is .b64 with 8-byte alignment.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    if (TID != 0) return;
    __shared__ u64 bars[2];
    unsigned b = sa(&bars[0]) + 4;
    mb_init(b, 1);
    out[0] = 1;
}
