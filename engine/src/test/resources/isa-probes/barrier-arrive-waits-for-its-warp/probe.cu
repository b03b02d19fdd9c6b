// barrier-arrive-waits-for-its-warp
// 9.7.13.1: barrier{.cta} (arrive too) causes the executing thread to wait for all non-exited threads from its warp before the warp's arrival is marked.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    __shared__ u64 bar;
    unsigned b = sa(&bar);
    if (TID == 0) mb_init(b, 16);
    __syncthreads();
    if (WARP == 0) {
        if (LANE < 16) {
            asm volatile("barrier.arrive 1, 64;" ::: "memory");
            mb_arrive(b);
        } else {
            mb_wait_par(b, 0);
            asm volatile("barrier.cta.arrive 1, 64;" ::: "memory");
        }
    } else asm volatile("barrier.sync 1, 64;" ::: "memory");
    out[TID] = 1;
}
