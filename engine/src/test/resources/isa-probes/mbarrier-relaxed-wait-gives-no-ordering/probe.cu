// mbarrier-relaxed-wait-gives-no-ordering
// 9.7.13.15.16: .relaxed test_wait/try_wait gives no acquire; the read races with the write.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    __shared__ u64 bar;
    __shared__ int v;
    unsigned b = sa(&bar);
    if (TID == 0) mb_init(b, 1);
    __syncthreads();
    if (TID == 0) { asm volatile("st.shared.u32 [%0], 42;" :: "r"(sa(&v)) : "memory"); mb_arrive(b); }
    if (WARP == 1) {
        unsigned r = 0;
        while (!r) asm volatile("{\n\t.reg .pred p;\n\tmbarrier.try_wait.parity.relaxed.cta.shared::cta.b64 p, [%1], 0;\n\tselp.u32 %0, 1, 0, p;\n\t}" : "=r"(r) : "r"(b) : "memory");
        int x; asm volatile("ld.shared.u32 %0, [%1];" : "=r"(x) : "r"(sa(&v)) : "memory"); out[LANE] = x;
    }
}
