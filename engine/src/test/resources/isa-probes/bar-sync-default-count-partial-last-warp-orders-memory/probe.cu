// bar-sync-default-count-partial-last-warp-orders-memory
// 9.7.13.1: without a count all threads of the CTA participate; prior writes are performed when it completes (48 threads).
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    __shared__ int s[48];
    s[TID] = TID + 1;
    __syncthreads();
    out[TID] = s[47 - TID];
}
