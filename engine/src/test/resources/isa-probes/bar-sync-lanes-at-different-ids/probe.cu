// bar-sync-lanes-at-different-ids
// 9.7.13.1: a thread at a barrier waits for all non-exited threads of its warp; lanes waiting at barrier 0 and barrier 1 never form a warp arrival.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    if (LANE < 16) asm volatile("barrier.sync 0;" ::: "memory");
    else asm volatile("barrier.sync 1;" ::: "memory");
    out[TID] = 1;
}
