// mbarrier-parity-two-phases-back-names-the-current-phase
// 9.7.13.15.16: phaseParity is the parity of the current or the immediately preceding phase; the parity of phase 0 while phase 2 is current names phase 2.
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
    mb_arrive(b);
    out[1] = mb_test_par(b, 1);
    out[2] = mb_test_par(b, 0);
    mb_arrive(b);
    out[3] = mb_test_par(b, 0);
}
