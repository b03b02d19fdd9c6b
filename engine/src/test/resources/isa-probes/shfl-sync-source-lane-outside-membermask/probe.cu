// shfl-sync-source-lane-outside-membermask
// 9.7.9.6 (shfl.sync): reading from a source lane that is not in membermask is undefined.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    if (LANE >= 16) return;
    unsigned v = 100 + LANE, d;
    asm volatile("shfl.sync.idx.b32 %0, %1, 20, 0x1f, 0x0000ffff;" : "=r"(d) : "r"(v));
    out[TID] = d;
}
