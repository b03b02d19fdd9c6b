// mbarrier-complete-tx-gives-no-ordering
// 9.7.13.15.12: complete_tx provides no memory ordering (relaxed); a write before it is not made visible by the waiter's acquire.
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
    if (TID == 32) { st_s(sa(&v), 42); mb_complete_tx(b, 4); }
    if (TID == 0) { mb_arrive_tx(b, 4); mb_wait_par(b, 0); out[0] = ld_s(sa(&v)); }
}
