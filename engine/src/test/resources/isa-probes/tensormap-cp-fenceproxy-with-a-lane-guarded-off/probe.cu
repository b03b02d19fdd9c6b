// tensormap-cp-fenceproxy-with-a-lane-guarded-off
// 9.7.13.16: ".aligned ... all threads in the warp must execute the same tensormap.cp_fenceproxy instruction ... otherwise behavior is undefined."
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    __shared__ __align__(128) int tile[32];
    if (LANE != 3)
        asm volatile("tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [%0], [%1], 128;"
                     :: "l"(out), "r"(sa(tile)) : "memory");
    __syncwarp();
}
