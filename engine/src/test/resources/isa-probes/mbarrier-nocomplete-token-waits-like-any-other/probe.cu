// mbarrier-nocomplete-token-waits-like-any-other
// 9.7.13.15.16: a state from any mbarrier.arrive (here .noComplete) on the object tests its phase: False before, True after completion.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    if (TID != 0) return;
    __shared__ u64 bar;
    unsigned b = sa(&bar);
    mb_init(b, 2);
    u64 s;
    asm volatile("mbarrier.arrive.noComplete.shared::cta.b64 %0, [%1], %2;" : "=l"(s) : "r"(b), "r"(1u) : "memory");
    out[0] = 10 + mb_test(b, s);
    mb_arrive(b);
    out[1] = 10 + mb_test(b, s);
}
