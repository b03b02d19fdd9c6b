// mbarrier-init-immediate-count
// 9.7.13.15.9: count is an unsigned 32-bit integer operand; an immediate count (3) initializes pending and expected arrivals to 3.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    if (TID != 0) return;
    __shared__ u64 bar;
    unsigned b = sa(&bar);
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 3;" :: "r"(b) : "memory");
    u64 s = mb_arrive_n(b, 2);
    out[0] = mb_test(b, s);
    mb_arrive(b);
    out[1] = mb_test(b, s);
}
