// mbarrier-arrive-immediate-count
// 9.7.13.15.13: the count operand of arrive may be an immediate: arrive-on with count 4 then 1 completes a count-5 phase.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    if (TID != 0) return;
    __shared__ u64 bar;
    unsigned b = sa(&bar);
    mb_init(b, 5);
    u64 s;
    asm volatile("mbarrier.arrive.shared::cta.b64 %0, [%1], 4;" : "=l"(s) : "r"(b) : "memory");
    out[0] = mb_test(b, s);
    asm volatile("mbarrier.arrive.shared::cta.b64 %0, [%1], 1;" : "=l"(s) : "r"(b) : "memory");
    out[1] = mb_test_par(b, 0);
}
