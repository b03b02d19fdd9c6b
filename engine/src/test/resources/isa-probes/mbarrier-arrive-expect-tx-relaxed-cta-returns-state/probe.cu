// mbarrier-arrive-expect-tx-relaxed-cta-returns-state
// 9.7.13.15.13: arrive.expect_tx.relaxed.cta on .shared::cta returns a state of the phase; relaxed changes ordering only, not the counts.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    if (TID != 0) return;
    __shared__ u64 bar;
    unsigned b = sa(&bar);
    mb_init(b, 1);
    u64 s; asm volatile("mbarrier.arrive.expect_tx.relaxed.cta.shared::cta.b64 %0, [%1], 8;" : "=l"(s) : "r"(b) : "memory");
    out[0] = mb_test(b, s);
    mb_complete_tx(b, 8);
    out[1] = mb_test(b, s);
}
