// shfl-sync-up-low-lanes-keep-their-own-value
// 9.7.9.6 (shfl.sync): .up: a lane whose source lane (lane - 2) is below the segment start keeps its own a.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    unsigned v = 100 + LANE, d;
    asm volatile("shfl.sync.up.b32 %0, %1, 2, 0, 0xffffffff;" : "=r"(d) : "r"(v));
    out[TID] = d;
}
