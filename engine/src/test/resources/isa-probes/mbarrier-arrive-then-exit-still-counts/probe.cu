// mbarrier-arrive-then-exit-still-counts
// 9.7.13.15.7: an arrive-on decrements the pending count when it is performed; the arriving thread may exit before the phase completes.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    __shared__ u64 bar;
    unsigned b = sa(&bar);
    if (TID == 0) mb_init(b, 2);
    __syncthreads();
    if (TID == 32) { mb_arrive(b); return; }
    if (TID == 0) {
        mb_arrive(b);
        mb_wait_par(b, 0);
        out[0] = 1;
    }
}
