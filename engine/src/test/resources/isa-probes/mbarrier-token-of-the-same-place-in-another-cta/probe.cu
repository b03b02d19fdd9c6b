// mbarrier-token-of-the-same-place-in-another-cta
// 9.7.13.15.16: state must be returned by an arrive on the same mbarrier object; a peer CTA's object at the same offset is another object.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void __cluster_dims__(2, 1, 1) probe(int *out)
{
    __shared__ u64 bar;
    __shared__ u64 tok;
    unsigned b = sa(&bar);
    unsigned r = cl_rank();
    if (TID == 0) mb_init(b, 2);
    asm volatile("barrier.cluster.arrive.aligned;\n\tbarrier.cluster.wait.aligned;" ::: "memory");
    if (r == 0 && TID == 0) {
        // CTA 0's token, handed to CTA 1 through distributed shared memory.
        u64 s = mb_arrive(b);
        asm volatile("st.shared::cluster.u64 [%0], %1;" :: "r"(mapa(sa(&tok), 1)), "l"(s) : "memory");
    }
    asm volatile("barrier.cluster.arrive.aligned;\n\tbarrier.cluster.wait.aligned;" ::: "memory");
    if (r == 1 && TID == 0) {
        u64 s;
        asm volatile("ld.shared::cta.u64 %0, [%1];" : "=l"(s) : "r"(sa(&tok)) : "memory");
        out[0] = 1 + mb_test(b, s);
    }
}
