// bar-count-half-cta-completes-two-generations
// 9.7.13.1: with b, b threads complete the barrier and it is reinitialized for immediate reuse: four warps, count 64, two generations.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    asm volatile("bar.sync 1, 64;" ::: "memory");
    out[TID] = 1;
}
