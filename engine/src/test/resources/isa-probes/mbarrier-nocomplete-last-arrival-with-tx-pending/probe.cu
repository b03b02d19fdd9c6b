// mbarrier-nocomplete-last-arrival-with-tx-pending
// 9.7.13.15.6/13: a .noComplete arrive that brings pending arrivals to zero while tx-count is non-zero does not complete the phase, so it is defined.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    if (TID != 0) return;
    __shared__ u64 bar;
    unsigned b = sa(&bar);
    mb_init(b, 2);
    mb_expect_tx(b, 16);
    u64 s0;
    asm volatile("mbarrier.arrive.noComplete.shared::cta.b64 %0, [%1], 2;" : "=l"(s0) : "r"(b) : "memory");
    out[0] = mb_test(b, s0);
    mb_complete_tx(b, 16);
    out[1] = mb_test(b, s0);
}
