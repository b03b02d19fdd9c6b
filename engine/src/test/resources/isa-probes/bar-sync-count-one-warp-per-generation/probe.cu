// bar-sync-count-one-warp-per-generation
// 9.7.13.1: with b = 32 one warp completes a generation; warps using it in turn each complete one.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    __shared__ int s[64];
    s[TID] = TID;
    asm volatile("bar.sync 1, 32;" ::: "memory");
    out[TID] = s[TID ^ 31];
}
