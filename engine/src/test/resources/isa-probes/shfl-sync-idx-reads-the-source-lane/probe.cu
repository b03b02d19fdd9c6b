// shfl-sync-idx-reads-the-source-lane
// 9.7.9.6 (shfl.sync): .idx: each member reads a from lane b of its segment (here lane 5 of 32).
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    unsigned v = 100 + LANE, d;
    asm volatile("shfl.sync.idx.b32 %0, %1, 5, 0x1f, 0xffffffff;" : "=r"(d) : "r"(v));
    out[TID] = d;
}
