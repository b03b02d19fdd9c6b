// mbarrier-parity-operand-3
// 9.7.13.15.16: phaseParity is the integer parity of a phase: the valid values are 0 and 1 (3 is neither).
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out, unsigned n)
{
    if (TID != 0) return;
    __shared__ u64 bar;
    unsigned b = sa(&bar);
    mb_init(b, 1);
    out[0] = mb_test_par(b, n);
}
