// bulk-wait-group-newer-completed-group-races
// 9.7.9.25.6: cp.async.bulk.wait_group 1 waits only for the groups older than the newest one; the newest group's global writes are not ordered before the thread's read.
// ISA probe: one normative sentence of PTX ISA 9.7.13 (or a section it leans on), run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

__device__ __forceinline__ void bulk16(int *dst, unsigned src)
{ asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], 16;\n\tcp.async.bulk.commit_group;" :: "l"(dst), "r"(src) : "memory"); }
__device__ __forceinline__ void st_s(unsigned a, int v) { asm volatile("st.shared.u32 [%0], %1;" :: "r"(a), "r"(v) : "memory"); }
__device__ __forceinline__ int ld_g(const int *p) { int v; asm volatile("ld.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory"); return v; }
extern "C" __global__ void probe(int *out, int *res)
{
    __shared__ __align__(16) int s[8];
    if (TID != 0) return;
    for (int i = 0; i < 8; i++) st_s(sa(&s[i]), 20 + i);
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    bulk16(out, sa(&s[0]));
    bulk16(out + 4, sa(&s[4]));
    asm volatile("cp.async.bulk.wait_group 1;" ::: "memory");
    res[0] = ld_g(out + 4);
    asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
}