// bar-arrive-twice-in-one-generation
// 9.7.13.1: keep a warp from executing bar.arrive followed by another barrier instruction on the same barrier before it resets.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    __shared__ int flag;
    if (TID == 0) flag = 0;
    __syncthreads();
    if (WARP == 0) {
        asm volatile("bar.arrive 1, 64;" ::: "memory");
        asm volatile("bar.arrive 1, 64;" ::: "memory");
        if (LANE == 0) atomicExch(&flag, 1);
    } else {
        while (atomicAdd(&flag, 0) == 0) { }
        asm volatile("bar.sync 1, 64;" ::: "memory");
    }
    out[TID] = 1;
}
