// tensormap-cp-fenceproxy-copies-128-bytes-for-the-warp
// 9.7.13.16: tensormap.cp_fenceproxy "Copies data of size specified by the size argument, in bytes, from ... src in shared memory to ... dst in the global memory".
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    __shared__ __align__(128) int tile[32];
    asm volatile("st.shared.u32 [%0], %1;" :: "r"(sa(&tile[LANE])), "r"(100 + (int)LANE) : "memory");
    __syncwarp();
    asm volatile("tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [%0], [%1], 128;"
                 :: "l"(out), "r"(sa(tile)) : "memory");
}
