// mbarrier-expect-tx-max
// 9.7.13.15.2: tx-count up to 2^20 - 1; the phase completes when pending arrivals and tx-count both reach zero.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    if (TID != 0) return;
    __shared__ u64 bar;
    unsigned b = sa(&bar);
    mb_init(b, 1);
    mb_expect_tx(b, (1u << 20) - 1);
    u64 s = mb_arrive(b);
    out[0] = mb_test(b, s);
    mb_complete_tx(b, (1u << 20) - 1);
    out[1] = mb_test(b, s);
}
