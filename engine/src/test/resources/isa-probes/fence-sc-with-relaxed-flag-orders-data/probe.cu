// fence-sc-with-relaxed-flag-orders-data
// 9.7.13.4: fence.sc is a stronger fence than fence.acq_rel: fence.sc.gpu around relaxed flag accesses orders the data before its read.
// ISA probe: one normative sentence of PTX ISA 9.7.13 (or a section it leans on), run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

__device__ __forceinline__ void st_g(int *p, int v) { asm volatile("st.global.u32 [%0], %1;" :: "l"(p), "r"(v) : "memory"); }
__device__ __forceinline__ int ld_g(const int *p) { int v; asm volatile("ld.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory"); return v; }
extern "C" __global__ void probe(int *out)
{
    if (TID == 0) {
        st_g(out + 1, 42);
        asm volatile("fence.sc.gpu;\n\tst.relaxed.gpu.global.u32 [%0], 1;" :: "l"(out) : "memory");
    } else if (TID == 32) {
        int f = 0;
        while (!f) asm volatile("ld.relaxed.gpu.global.u32 %0, [%1];" : "=r"(f) : "l"(out) : "memory");
        asm volatile("fence.sc.gpu;" ::: "memory");
        out[2] = ld_g(out + 1);
    }
}