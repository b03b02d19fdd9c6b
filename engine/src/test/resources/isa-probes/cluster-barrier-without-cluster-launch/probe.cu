// cluster-barrier-without-cluster-launch
// 9.7.13.3: barrier.cluster.wait waits for all non-exited threads of the cluster to arrive (a launch without clusters is a one-CTA cluster).
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    __shared__ int s[64];
    s[TID] = TID + 1;
    asm volatile("barrier.cluster.arrive;" ::: "memory");
    asm volatile("barrier.cluster.wait;" ::: "memory");
    out[TID] = s[63 - TID];
}
