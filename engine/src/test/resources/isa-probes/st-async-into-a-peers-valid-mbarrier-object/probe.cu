// st-async-into-a-peers-valid-mbarrier-object
// 9.7.13.15: performing any non-mbarrier operation on an initialized mbarrier object results in undefined behavior (st.async into a peer's object).
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void __cluster_dims__(2, 1, 1) probe(int *out)
{
    __shared__ u64 bar;
    __shared__ u64 sig;
    unsigned r = cl_rank();
    if (r == 0 && TID == 0) {
        mb_init(sa(&bar), 1);
        mb_init(sa(&sig), 1);
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    asm volatile("barrier.cluster.arrive.relaxed.aligned;\n\tbarrier.cluster.wait.aligned;" ::: "memory");
    if (r == 0 && TID == 0) {
        mb_arrive_tx(sa(&sig), 4);
        mb_wait_par(sa(&sig), 0);
    }
    if (r == 1 && TID == 0) {
        // The destination is CTA 0's valid mbarrier `bar`; `sig` is the copy's own signal.
        asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.u32 [%0], %1, [%2];"
                     :: "r"(mapa(sa(&bar), 0)), "r"(5), "r"(mapa(sa(&sig), 0)) : "memory");
    }
    asm volatile("barrier.cluster.arrive.aligned;\n\tbarrier.cluster.wait.aligned;" ::: "memory");
    if (TID == 0) out[0] = 1;
}
