// mbarrier-arrive-drop-nocomplete-to-zero
// 9.7.13.15.14/2: arrive_drop.noComplete decrements the expected count first; from 1 that leaves the range (minimum 1).
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    if (TID != 0) return;
    __shared__ u64 bar;
    unsigned b = sa(&bar);
    mb_init(b, 1);
    u64 s;
    asm volatile("mbarrier.arrive_drop.noComplete.shared::cta.b64 %0, [%1], 1;" : "=l"(s) : "r"(b) : "memory");
    out[0] = 1;
}
