// mbarrier-token-from-before-inval-and-reinit
// 9.7.13.15.16/10: state must come from an arrive on the same mbarrier object; after inval and init the location holds another object.
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
    mb_inval(b);
    mb_init(b, 2);
    out[0] = mb_test(b, s);
}
