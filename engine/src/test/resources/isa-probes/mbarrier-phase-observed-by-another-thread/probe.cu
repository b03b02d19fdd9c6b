// mbarrier-phase-observed-by-another-thread
// 9.7.13.15.4: the True wait of a phase may come from any thread before the next phase's arrive.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    __shared__ u64 bar;
    unsigned b = sa(&bar);
    if (TID == 0) mb_init(b, 1);
    __syncthreads();
    if (TID == 0) mb_arrive(b);
    if (TID == 32) mb_wait_par(b, 0);
    __syncthreads();
    if (TID == 0) { u64 s = mb_arrive(b); out[0] = mb_test(b, s); }
}
