// mbarrier-shared-cluster-arrive-in-a-launch-without-clusters
// 9.7.13.15.13: a launch without clusters is a one-CTA cluster; the .shared::cluster arrive on the CTA's own object (mapa rank 0) arrives on it.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    if (TID != 0) return;
    __shared__ u64 bar;
    unsigned b = sa(&bar);
    mb_init(b, 2);
    asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];" :: "r"(mapa(b, 0)) : "memory");
    out[0] = mb_test_par(b, 0);
    asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];" :: "r"(mapa(b, 0)) : "memory");
    out[1] = mb_test_par(b, 0);
}
