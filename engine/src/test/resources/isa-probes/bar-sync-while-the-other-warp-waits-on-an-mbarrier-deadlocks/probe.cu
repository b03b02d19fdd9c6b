// bar-sync-while-the-other-warp-waits-on-an-mbarrier-deadlocks
// 9.7.13.1/9.7.13.15.6: bar.sync without a count waits for every non-exited warp; warp 1 waits on an mbarrier only warp 0 would complete after the bar.sync.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    __shared__ u64 bar;
    unsigned b = sa(&bar);
    if (TID == 0) mb_init(b, 1);
    __syncthreads();
    if (WARP == 0) {
        __syncthreads();
        if (TID == 0) mb_arrive(b);
    } else {
        if (TID == 32) mb_wait_par(b, 0);
        __syncwarp();
    }
    out[TID] = 1;
}
