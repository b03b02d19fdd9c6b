// mbarrier-arrive-release-cluster-on-own-cta
// 9.7.13.15.13: .release.cluster arrive on the executing CTA's own mbarrier returns a state that tests its phase.
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
    asm volatile("mbarrier.arrive.release.cluster.shared::cta.b64 %0, [%1];" : "=l"(s) : "r"(b) : "memory");
    out[0] = 10 + mb_test(b, s);
}
