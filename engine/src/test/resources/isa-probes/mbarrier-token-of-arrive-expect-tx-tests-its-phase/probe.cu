// mbarrier-token-of-arrive-expect-tx-tests-its-phase
// 9.7.13.15.13/16: arrive.expect_tx returns a state of its phase; False while tx-count is outstanding, True after complete-tx.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    if (TID != 0) return;
    __shared__ u64 bar;
    unsigned b = sa(&bar);
    mb_init(b, 1);
    u64 s = mb_arrive_tx(b, 16);
    out[0] = mb_test(b, s);
    mb_complete_tx(b, 16);
    out[1] = mb_test(b, s);
}
