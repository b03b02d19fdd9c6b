// spin-on-shared-flag-set-by-other-warp
// 9.7.13.5: atomics on one location are totally ordered; a warp spinning on an atomic flag sees another warp's later exchange.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    __shared__ int f;
    if (TID == 0) f = 0;
    __syncthreads();
    if (TID == 32) {
        for (int i = 0; i < 20; i++) atomicAdd(&out[1], 1);
        atomicExch(&f, 1);
    }
    if (TID == 0) {
        while (atomicAdd(&f, 0) == 0) { }
        out[0] = 1;
    }
}
