// mbarrier-false-wait-does-not-observe-the-phase
// 9.7.13.15.4: a wait returning True must precede an arrive-on in the next phase; one returning False does not count.
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
    out[0] = mb_test_par(b, 1);
    mb_arrive(b);
}
