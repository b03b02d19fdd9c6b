// mbarrier-token-of-another-barrier
// 9.7.13.15.16: state must be returned by an mbarrier.arrive on the same mbarrier object.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    if (TID != 0) return;
    __shared__ u64 bars[2];
    unsigned a = sa(&bars[0]), b = sa(&bars[1]);
    mb_init(a, 2);
    mb_init(b, 2);
    u64 s = mb_arrive(a);
    out[0] = mb_test(b, s);
}
