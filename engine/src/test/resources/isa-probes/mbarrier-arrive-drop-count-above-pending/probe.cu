// mbarrier-arrive-drop-count-above-pending
// 9.7.13.15.14/2: arrive_drop's arrive-on decrements pending by count; pending 1 minus 2 leaves the range (minimum 0).
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out, unsigned n)
{
    if (TID != 0) return;
    __shared__ u64 bar;
    unsigned b = sa(&bar);
    mb_init(b, 4);
    mb_arrive_n(b, 3);
    asm volatile("mbarrier.arrive_drop.shared::cta.b64 _, [%0], %1;" :: "r"(b), "r"(n) : "memory");
    out[0] = 1;
}
