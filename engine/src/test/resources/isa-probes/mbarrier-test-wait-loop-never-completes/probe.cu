// mbarrier-test-wait-loop-never-completes
// 9.7.13.15.6: the phase completes only when the pending count reaches zero; one of two arrivals never completes it.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    if (TID != 0) return;
    __shared__ u64 bar;
    unsigned b = sa(&bar);
    mb_init(b, 2);
    u64 s = mb_arrive(b);
    mb_wait(b, s);
    out[0] = 1;
}
