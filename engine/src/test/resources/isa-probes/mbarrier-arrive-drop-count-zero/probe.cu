// mbarrier-arrive-drop-count-zero
// 9.7.13.15.14: the value of the operand count must be in the range of Contents of the mbarrier object (at least 1).
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out, unsigned n)
{
    if (TID != 0) return;
    __shared__ u64 bar;
    unsigned b = sa(&bar);
    mb_init(b, 2);
    asm volatile("mbarrier.arrive_drop.shared::cta.b64 _, [%0], %1;" :: "r"(b), "r"(n) : "memory");
    out[0] = 1;
}
