// mbarrier-expect-tx-zero-is-a-no-op
// 9.7.13.15.5.1: expect-tx increases tx-count by expectCount (0 changes nothing).
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    if (TID != 0) return;
    __shared__ u64 bar;
    unsigned b = sa(&bar);
    mb_init(b, 1);
    mb_expect_tx(b, 0);
    u64 s = mb_arrive(b);
    out[0] = mb_test(b, s);
}
