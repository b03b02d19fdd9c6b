// cluster-arrive-waits-for-its-warp
// 9.7.13.3: barrier.cluster instructions (arrive too) cause the executing thread to wait for all non-exited threads from its warp; lanes that only arrive after the first half has left its arrive never come.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void __cluster_dims__(2, 1, 1) probe(int *out)
{
    __shared__ u64 bar;
    unsigned b = sa(&bar);
    if (TID == 0) mb_init(b, 16);
    __syncthreads();
    if (LANE < 16) {
        asm volatile("barrier.cluster.arrive;" ::: "memory");
        mb_arrive(b);
        asm volatile("barrier.cluster.wait;" ::: "memory");
    } else {
        mb_wait_par(b, 0);
        asm volatile("barrier.cluster.arrive.release;" ::: "memory");
        asm volatile("barrier.cluster.wait.acquire;" ::: "memory");
    }
    out[cl_rank() * 32 + TID] = 1;
}
