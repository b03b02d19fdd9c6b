// mbarrier-fresh-parity
// 9.7.13.15.16: parity of the current incomplete phase is False; of the immediately preceding phase True.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    if (TID != 0) return;
    __shared__ u64 bar;
    unsigned b = sa(&bar);
    mb_init(b, 1);
    out[0] = mb_test_par(b, 1);
    out[1] = mb_test_par(b, 0);
    out[2] = mb_try_par(b, 1);
    out[3] = mb_try_par(b, 0);
}
