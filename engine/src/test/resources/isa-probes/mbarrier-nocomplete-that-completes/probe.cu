// mbarrier-nocomplete-that-completes
// 9.7.13.15.13: .noComplete must not cause the mbarrier to complete its current phase.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    if (TID != 0) return;
    __shared__ u64 bar;
    unsigned b = sa(&bar);
    mb_init(b, 2);
    u64 s0;
    asm volatile("mbarrier.arrive.noComplete.shared::cta.b64 %0, [%1], 2;" : "=l"(s0) : "r"(b) : "memory");
    out[0] = 1;
}
