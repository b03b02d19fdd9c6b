// mbarrier-expect-tx-max-completed-in-two-parts
// 9.7.13.15.5.2/6: complete-tx decrements tx-count by completeCount; the phase completes only when tx-count reaches zero.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    if (TID != 0) return;
    __shared__ u64 bar;
    unsigned b = sa(&bar);
    mb_init(b, 1);
    mb_expect_tx(b, 1048575);
    mb_complete_tx(b, 524288);
    mb_arrive(b);
    out[0] = mb_test_par(b, 0);
    mb_complete_tx(b, 524287);
    out[1] = mb_test_par(b, 0);
}
