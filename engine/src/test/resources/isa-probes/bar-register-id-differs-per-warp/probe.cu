// bar-register-id-differs-per-warp
// 9.7.13.1: one aligned instruction whose register id differs between warps names different barriers; each completes with its own count.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    __shared__ int s[64];
    s[TID] = TID;
    unsigned id = 1 + WARP;
    asm volatile("bar.sync %0, 32;" :: "r"(id) : "memory");
    out[TID] = s[TID ^ 1];
}
