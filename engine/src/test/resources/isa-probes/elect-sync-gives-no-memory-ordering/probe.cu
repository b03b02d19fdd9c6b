// elect-sync-gives-no-memory-ordering
// 9.7.13.14 vs 9.7.13.2: elect.sync waits for the members but gives no memory ordering, so the read races.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

__device__ __forceinline__ void st_s(unsigned a, int v) { asm volatile("st.shared.u32 [%0], %1;" :: "r"(a), "r"(v) : "memory"); }
__device__ __forceinline__ int ld_s(unsigned a) { int v; asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v) : "r"(a) : "memory"); return v; }
__device__ __forceinline__ unsigned elect(unsigned m, unsigned *leader)
{ unsigned d, p; asm volatile("{\n\t.reg .pred q;\n\telect.sync %0|q, %2;\n\tselp.u32 %1, 1, 0, q;\n\t}" : "=r"(d), "=r"(p) : "r"(m) : "memory"); *leader = p; return d; }

extern "C" __global__ void probe(int *out)
{
    __shared__ int v;
    if (LANE == 1) st_s(sa(&v), 42);
    unsigned p;
    unsigned d = elect(0xffffffffu, &p);
    if (LANE == 0) out[0] = ld_s(sa(&v)) + (int)d;
}
