// bar-arrive-with-the-cta-size-and-sync-without-count
// 9.7.13.1: different warps may mix forms using the same barrier name and thread count; a count equal to the CTA's threads and no count (all threads) name the same participants.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

__device__ __forceinline__ int lds(unsigned a) { int v; asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v) : "r"(a) : "memory"); return v; }
__device__ __forceinline__ void sts(unsigned a, int v) { asm volatile("st.shared.u32 [%0], %1;" :: "r"(a), "r"(v) : "memory"); }

extern "C" __global__ void probe(int *out)
{
    __shared__ int v;
    if (WARP == 0) {
        if (TID == 0) sts(sa(&v), 9);
        asm volatile("bar.arrive 1, 64;" ::: "memory");   // the producer: arrive needs a count, the CTA's 64
    } else {
        asm volatile("bar.sync 1;" ::: "memory");         // the consumer: all threads of the CTA
        out[TID] = lds(sa(&v));
    }
}
