// mbarrier-init-count-one-every-phase
// 9.7.13.15.6/2: expected count 1 (the minimum): each single arrive completes a phase and pending is reinitialized to 1.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    if (TID != 0) return;
    __shared__ u64 bar;
    unsigned b = sa(&bar);
    mb_init(b, 1);
    for (int i = 0; i < 5; i++) {
        u64 s = mb_arrive(b);
        out[i] = mb_test(b, s);
    }
}
