// bar-sync-explicit-count-exited-warp-deadlocks
// 9.7.13.1: b threads must arrive; an exited warp never does.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    if (WARP == 2) return;
    asm volatile("bar.sync 1, 96;" ::: "memory");
    out[TID] = 1;
}
