// bar-sync-half-warp-waits-for-other-half
// 9.7.13.1: barrier causes the executing thread to wait for all non-exited threads from its warp.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    __shared__ int s[32];
    if (LANE < 16) { s[LANE] = 7; s[LANE + 16] = 9; }
    if (LANE >= 16) asm volatile("barrier.sync 0;" ::: "memory");
    else asm volatile("barrier.cta.sync 0;" ::: "memory");
    out[TID] = s[TID];
}
