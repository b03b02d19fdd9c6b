// bar-arrive-aligned-divergent-lanes
// 9.7.13.1: bar.arrive is barrier.arrive.aligned; lanes of one warp reaching it through two different instructions is undefined.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    if (WARP == 0) {
        if (LANE < 16) asm volatile("bar.arrive 1, 64;" ::: "memory");
        else asm volatile("bar.arrive 1, 64;" ::: "memory");
    } else {
        asm volatile("bar.sync 1, 64;" ::: "memory");
    }
    out[TID] = 1;
}
