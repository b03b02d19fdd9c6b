// bar-all-sixteen-ids
// 9.7.13.1: each CTA instance has sixteen barriers numbered 0..15.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    __shared__ int s[64];
    int acc = 0;
    for (unsigned id = 0; id < 16; id++) {
        s[TID] = TID * id;
        asm volatile("barrier.sync %0;" :: "r"(id) : "memory");
        acc += s[(TID + 1) % 64];
        asm volatile("barrier.sync %0;" :: "r"(id) : "memory");
    }
    out[TID] = acc;
}
