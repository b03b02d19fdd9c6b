// mbarrier-arrive-count-all-ones
// 9.7.13.15.13: count is an unsigned 32-bit operand that must lie in the count range; 0xffffffff does not.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out, unsigned n)
{
    if (TID != 0) return;
    __shared__ u64 bar;
    unsigned b = sa(&bar);
    mb_init(b, 2);
    mb_arrive_n(b, n);
    out[0] = 1;
}
