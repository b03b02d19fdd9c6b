// bar-sync-orders-global-memory
// 9.7.13.1: prior memory accesses (global too) are performed relative to all participating threads when the barrier completes.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    if (WARP == 1) out[64 + LANE] = LANE + 1;
    __syncthreads();
    if (WARP == 0) out[TID] = out[64 + 31 - LANE];
}
