// mapa-generic-getctarank-isspacep-of-a-peer
// 9.7.9.23-24 (mapa, getctarank) and isspacep: a generic mapa gives the peer's variable; getctarank names its rank; the address is shared::cluster but not shared::cta.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"
__device__ __forceinline__ void st_s(unsigned a, int v) { asm volatile("st.shared.u32 [%0], %1;" :: "r"(a), "r"(v) : "memory"); }

extern "C" __global__ void __cluster_dims__(2, 1, 1) probe(int *out)
{
    __shared__ int s[1];
    if (TID == 0) st_s(sa(s), 10 + cl_rank());
    asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");
    if (TID == 0 && cl_rank() == 0) {
        u64 g = (u64)s, peer;
        unsigned r, c, k, cl;
        int v, w;
        asm volatile("mapa.u64 %0, %1, 1;" : "=l"(peer) : "l"(g));
        asm volatile("ld.u32 %0, [%1];" : "=r"(v) : "l"(peer) : "memory");
        asm volatile("getctarank.u64 %0, %1;" : "=r"(r) : "l"(peer));
        asm volatile("{\n\t.reg .pred p;\n\tisspacep.shared::cta p, %1;\n\tselp.u32 %0, 1, 0, p;\n\t}" : "=r"(c) : "l"(peer));
        asm volatile("{\n\t.reg .pred p;\n\tisspacep.shared::cluster p, %1;\n\tselp.u32 %0, 1, 0, p;\n\t}" : "=r"(k) : "l"(peer));
        asm volatile("{\n\t.reg .pred p;\n\tisspacep.shared::cta p, %1;\n\tselp.u32 %0, 1, 0, p;\n\t}" : "=r"(cl) : "l"(g));
        asm volatile("getctarank.shared::cluster.u32 %0, %1;" : "=r"(w) : "r"(sa(s)));
        out[0] = v; out[1] = r; out[2] = c; out[3] = k; out[4] = cl; out[5] = w;
    }
    asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");
}
