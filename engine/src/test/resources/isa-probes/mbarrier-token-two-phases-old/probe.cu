// mbarrier-token-two-phases-old
// 9.7.13.15.16: test_wait is valid only for the current or the immediately preceding phase.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    if (TID != 0) return;
    __shared__ u64 bar;
    unsigned b = sa(&bar);
    mb_init(b, 1);
    u64 s0 = mb_arrive(b);
    out[0] = mb_test(b, s0);
    u64 s1 = mb_arrive(b);
    out[1] = mb_test(b, s1);
    out[2] = mb_test(b, s0);
}
