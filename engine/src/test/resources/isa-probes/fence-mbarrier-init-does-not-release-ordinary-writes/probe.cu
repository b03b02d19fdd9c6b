// fence-mbarrier-init-does-not-release-ordinary-writes
// 9.7.13.4: "When .op_restrict is .mbarrier_init, the synchronizing effect of the fence only applies to the prior mbarrier.init operations executed by the same thread".
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void __cluster_dims__(2, 1, 1) probe(int *out)
{
    __shared__ int s[64];
    unsigned r = cl_rank();
    s[TID] = r * 100 + TID;
    // Not fence.acq_rel.cluster (cluster-relaxed-arrive-after-fence): this fence releases mbarrier inits only.
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    asm volatile("barrier.cluster.arrive.relaxed.aligned;" ::: "memory");
    asm volatile("barrier.cluster.wait.aligned;" ::: "memory");
    int v = ld_cl(mapa(sa(&s[63 - TID]), r ^ 1));
    asm volatile("barrier.cluster.arrive.aligned;" ::: "memory");
    asm volatile("barrier.cluster.wait.aligned;" ::: "memory");
    out[r * 64 + TID] = v;
}
