// shfl-sync-width-16-segments
// 9.7.9.6 (shfl.sync): c packs the segment mask; with width 16 .idx 3 reads lane 3 of each half-warp.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    unsigned v = 100 + LANE, d;
    asm volatile("shfl.sync.idx.b32 %0, %1, 3, 0x101f, 0xffffffff;" : "=r"(d) : "r"(v));
    out[TID] = d;
}
