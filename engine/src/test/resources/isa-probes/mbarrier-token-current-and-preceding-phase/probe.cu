// mbarrier-token-current-and-preceding-phase
// 9.7.13.15.16: a state token of the current phase gives False, of the immediately preceding phase True.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    if (TID != 0) return;
    __shared__ u64 bar;
    unsigned b = sa(&bar);
    mb_init(b, 2);
    u64 s0 = mb_arrive(b);
    out[0] = mb_test(b, s0);
    mb_arrive(b);
    out[1] = mb_test(b, s0);
}
