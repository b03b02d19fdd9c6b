// mbarrier-waiter-deadlocks-when-the-other-party-exits-without-arriving
// 9.7.13.15.6: the phase completes only when pending arrivals reach zero; an exited thread never arrives (only arrive_drop removes it).
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    __shared__ u64 bar;
    unsigned b = sa(&bar);
    if (TID == 0) mb_init(b, 2);
    __syncthreads();
    if (TID >= 32) return;
    if (TID == 0) {
        mb_arrive(b);
        mb_wait_par(b, 0);
        out[0] = 1;
    }
}
