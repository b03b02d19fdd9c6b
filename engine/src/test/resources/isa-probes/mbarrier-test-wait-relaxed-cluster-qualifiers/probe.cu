// mbarrier-test-wait-relaxed-cluster-qualifiers
// 9.7.13.15.16: .relaxed and .cluster change ordering and scope only; test_wait still answers False then True.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    if (TID != 0) return;
    __shared__ u64 bar;
    unsigned b = sa(&bar);
    mb_init(b, 2);
    u64 s = mb_arrive(b);
    unsigned r0, r1;
    asm volatile("{\n\t.reg .pred p;\n\tmbarrier.test_wait.relaxed.cluster.shared::cta.b64 p, [%1], %2;\n\tselp.u32 %0, 1, 0, p;\n\t}" : "=r"(r0) : "r"(b), "l"(s) : "memory");
    mb_arrive(b);
    asm volatile("{\n\t.reg .pred p;\n\tmbarrier.test_wait.relaxed.cluster.shared::cta.b64 p, [%1], %2;\n\tselp.u32 %0, 1, 0, p;\n\t}" : "=r"(r1) : "r"(b), "l"(s) : "memory");
    out[0] = 10 + r0;
    out[1] = 10 + r1;
}
