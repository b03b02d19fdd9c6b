// bar-sync-default-count-after-warp-exits-in-loop
// 9.7.13.1: without a count the barrier waits for all non-exited threads; after warp 1 exits, warp 0 completes generations alone.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    int n = WARP == 0 ? 3 : 1;
    for (int i = 0; i < n; i++) {
        asm volatile("bar.sync 0;" ::: "memory");
        if (LANE == 0) atomicAdd(&out[WARP], 1);
    }
}
