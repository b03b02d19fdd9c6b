// release-acquire-cta-scope-orders-data-in-cta
// 9.7.13 / memory model: st.release.cta and ld.acquire.cta by two threads of one CTA are morally strong and synchronize: the data is ordered.
// ISA probe: one normative sentence of PTX ISA 9.7.13 (or a section it leans on), run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

__device__ __forceinline__ void st_g(int *p, int v) { asm volatile("st.global.u32 [%0], %1;" :: "l"(p), "r"(v) : "memory"); }
__device__ __forceinline__ int ld_g(const int *p) { int v; asm volatile("ld.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory"); return v; }
extern "C" __global__ void probe(int *out)
{
    if (TID == 0) {
        st_g(out + 1, 9);
        asm volatile("st.release.cta.global.u32 [%0], 1;" :: "l"(out) : "memory");
    } else if (TID == 32) {
        int f = 0;
        while (!f) asm volatile("ld.acquire.cta.global.u32 %0, [%1];" : "=r"(f) : "l"(out) : "memory");
        out[2] = ld_g(out + 1);
    }
}