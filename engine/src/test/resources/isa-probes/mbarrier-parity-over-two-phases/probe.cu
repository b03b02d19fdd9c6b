// mbarrier-parity-over-two-phases
// 9.7.13.15.4/16: phases 0, 1, 2; parity tests the current (False) or the preceding (True) phase.
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
    out[0] = mb_test_par(b, 0);
    out[1] = mb_test_par(b, 1);
    mb_arrive(b);
    out[2] = mb_test_par(b, 1);
    out[3] = mb_test_par(b, 0);
    out[4] = mb_try_par(b, 1);
}
