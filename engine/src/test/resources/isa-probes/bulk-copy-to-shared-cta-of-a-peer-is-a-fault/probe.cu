// bulk-copy-to-shared-cta-of-a-peer-is-a-fault
// 9.7.9.25.4.1 (cp.async.bulk): "When the destination of the copy is .shared::cta the destination address has to be in the shared memory of the executing CTA"
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"
extern "C" __global__ void __cluster_dims__(2, 1, 1) probe(int *out, const int *in)
{
    __shared__ __align__(16) int s[4];
    __shared__ u64 bar;
    if (TID == 0) mb_init(sa(&bar), 1);
    asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");
    if (TID == 0 && cl_rank() == 0) {
        asm volatile("cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes [%0], [%1], 16, [%2];"
                     :: "r"(mapa(sa(s), 1)), "l"(in), "r"(mapa(sa(&bar), 1)) : "memory");
        out[0] = 1;
    }
    asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");
}
