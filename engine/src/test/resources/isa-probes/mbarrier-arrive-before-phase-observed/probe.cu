// mbarrier-arrive-before-phase-observed
// 9.7.13.15.4: a test_wait/try_wait must return True for each phase before an arrive-on in the next.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    if (TID != 0) return;
    __shared__ u64 bar;
    unsigned b = sa(&bar);
    mb_init(b, 1);
    mb_arrive(b);
    mb_arrive(b);
    out[0] = 1;
}
