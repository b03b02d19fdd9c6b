// mbarrier-try-wait-parity-hint-loop-completes
// 9.7.13.15.16: a try_wait with suspendTimeHint resumes when the phase completes; with acquire it sees the releasing arrive's writes.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

__device__ __forceinline__ void st_s(unsigned a, int v) { asm volatile("st.shared.u32 [%0], %1;" :: "r"(a), "r"(v) : "memory"); }
__device__ __forceinline__ int ld_s(unsigned a) { int v; asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v) : "r"(a) : "memory"); return v; }

extern "C" __global__ void probe(int *out)
{
    __shared__ u64 bar;
    __shared__ int v;
    unsigned b = sa(&bar);
    if (TID == 0) mb_init(b, 1);
    __syncthreads();
    if (WARP == 1) {
        if (LANE == 0) { st_s(sa(&v), 42); mb_arrive(b); }
        return;
    }
    unsigned ok = 0;
    while (!ok) asm volatile("{\n\t.reg .pred p;\n\tmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2, %3;\n\tselp.u32 %0, 1, 0, p;\n\t}" : "=r"(ok) : "r"(b), "r"(0u), "r"(1000u) : "memory");
    out[TID] = ld_s(sa(&v));
}
