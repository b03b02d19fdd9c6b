// mbarrier-release-acquire-orders-data
// 9.7.13.15.16: a True acquire wait sees memory accesses before release arrives of the completed phase.
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
    if (TID == 0) { asm volatile("st.shared.u32 [%0], 42;" :: "r"(sa(&v)) : "memory"); asm volatile("mbarrier.arrive.release.cta.shared::cta.b64 _, [%0];" :: "r"(b) : "memory"); }
    if (WARP == 1) { mb_wait_par(b, 0); int x; asm volatile("ld.shared.u32 %0, [%1];" : "=r"(x) : "r"(sa(&v)) : "memory"); out[LANE] = x; }
}
