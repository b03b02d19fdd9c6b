// shfl-sync-not-member
// 9.7.9.6 (shfl.sync): the behavior is undefined if the executing thread is not in membermask.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    unsigned v = 100 + LANE, d;
    asm volatile("shfl.sync.idx.b32 %0, %1, 0, 0x1f, 0x0000ffff;" : "=r"(d) : "r"(v));
    out[TID] = d;
}
