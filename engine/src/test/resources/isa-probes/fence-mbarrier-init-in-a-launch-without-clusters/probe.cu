// fence-mbarrier-init-in-a-launch-without-clusters
// 9.7.13.4: fence.mbarrier_init.release.cluster is a lightweight fence on prior mbarrier.init; in a one-CTA cluster it changes no counts.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    if (TID != 0) return;
    __shared__ u64 bar;
    unsigned b = sa(&bar);
    mb_init(b, 1);
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    u64 s = mb_arrive(b);
    out[0] = mb_test(b, s);
}
