// membar-cta-with-volatile-flag-orders-data-in-cta
// 9.7.13.4: membar.cta is fence.sc.cta: two threads of one CTA that fence around a volatile flag order the data (volatile is relaxed.sys).
// ISA probe: one normative sentence of PTX ISA 9.7.13 (or a section it leans on), run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

__device__ __forceinline__ void st_g(int *p, int v) { asm volatile("st.global.u32 [%0], %1;" :: "l"(p), "r"(v) : "memory"); }
__device__ __forceinline__ int ld_g(const int *p) { int v; asm volatile("ld.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory"); return v; }
extern "C" __global__ void probe(int *out)
{
    if (TID == 0) {
        st_g(out + 1, 7);
        asm volatile("membar.cta;\n\tst.volatile.global.u32 [%0], 1;" :: "l"(out) : "memory");
    } else if (TID == 32) {
        int f = 0;
        while (!f) asm volatile("ld.volatile.global.u32 %0, [%1];" : "=r"(f) : "l"(out) : "memory");
        asm volatile("membar.cta;" ::: "memory");
        out[2] = ld_g(out + 1);
    }
}