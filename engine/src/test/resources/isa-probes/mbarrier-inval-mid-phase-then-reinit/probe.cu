// mbarrier-inval-mid-phase-then-reinit
// 9.7.13.15.3/10: an object may be invalidated with its phase incomplete; after init the location is a fresh object in phase 0.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    if (TID != 0) return;
    __shared__ u64 bar;
    unsigned b = sa(&bar);
    mb_init(b, 2);
    mb_arrive(b);
    mb_inval(b);
    mb_init(b, 1);
    out[0] = mb_test_par(b, 0);
    mb_arrive(b);
    out[1] = mb_test_par(b, 0);
}
