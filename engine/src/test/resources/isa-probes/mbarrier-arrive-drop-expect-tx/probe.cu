// mbarrier-arrive-drop-expect-tx
// 9.7.13.15.14: arrive_drop.expect_tx does expect-tx, lowers the expected count and arrives once.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    if (TID != 0) return;
    __shared__ u64 bar;
    unsigned b = sa(&bar);
    mb_init(b, 2);
    asm volatile("mbarrier.arrive_drop.expect_tx.shared::cta.b64 _, [%0], 16;" :: "r"(b) : "memory");
    u64 s = mb_arrive(b);
    out[0] = mb_test(b, s);
    mb_complete_tx(b, 16);
    out[1] = mb_test(b, s);
    s = mb_arrive(b);
    out[2] = mb_test(b, s);
}
