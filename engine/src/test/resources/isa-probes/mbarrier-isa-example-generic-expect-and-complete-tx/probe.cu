// mbarrier-isa-example-generic-expect-and-complete-tx
// 9.7.13.15.11/12 examples: mbarrier.expect_tx.b64 [addr], 32 and mbarrier.complete_tx.b64 [addr], 32 on a generic address of the CTA's object.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    if (TID != 0) return;
    __shared__ u64 bar;
    unsigned b = sa(&bar);
    u64 g = (u64)&bar;
    mb_init(b, 1);
    asm volatile("mbarrier.expect_tx.b64 [%0], 32;" :: "l"(g) : "memory");
    mb_arrive(b);
    out[0] = mb_test_par(b, 0);
    asm volatile("mbarrier.complete_tx.b64 [%0], 32;" :: "l"(g) : "memory");
    out[1] = mb_test_par(b, 0);
}
