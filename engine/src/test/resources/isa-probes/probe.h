// The inline-PTX helpers every ISA probe uses (one mbarrier, warp or cluster instruction each).
#pragma once
#define TID (threadIdx.x)
#define LANE (threadIdx.x & 31)
#define WARP (threadIdx.x >> 5)
typedef unsigned long long u64;
__device__ __forceinline__ unsigned sa(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }
__device__ __forceinline__ void mb_init(unsigned b, unsigned n)
{ asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(b), "r"(n) : "memory"); }
__device__ __forceinline__ void mb_inval(unsigned b)
{ asm volatile("mbarrier.inval.shared::cta.b64 [%0];" :: "r"(b) : "memory"); }
__device__ __forceinline__ u64 mb_arrive(unsigned b)
{ u64 s; asm volatile("mbarrier.arrive.shared::cta.b64 %0, [%1];" : "=l"(s) : "r"(b) : "memory"); return s; }
__device__ __forceinline__ u64 mb_arrive_n(unsigned b, unsigned n)
{ u64 s; asm volatile("mbarrier.arrive.shared::cta.b64 %0, [%1], %2;" : "=l"(s) : "r"(b), "r"(n) : "memory"); return s; }
__device__ __forceinline__ u64 mb_arrive_tx(unsigned b, unsigned tx)
{ u64 s; asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 %0, [%1], %2;" : "=l"(s) : "r"(b), "r"(tx) : "memory"); return s; }
__device__ __forceinline__ void mb_expect_tx(unsigned b, unsigned tx)
{ asm volatile("mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%0], %1;" :: "r"(b), "r"(tx) : "memory"); }
__device__ __forceinline__ void mb_complete_tx(unsigned b, unsigned tx)
{ asm volatile("mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [%0], %1;" :: "r"(b), "r"(tx) : "memory"); }
__device__ __forceinline__ int mb_test(unsigned b, u64 s)
{ unsigned r; asm volatile("{\n\t.reg .pred p;\n\tmbarrier.test_wait.shared::cta.b64 p, [%1], %2;\n\tselp.u32 %0, 1, 0, p;\n\t}" : "=r"(r) : "r"(b), "l"(s) : "memory"); return r; }
__device__ __forceinline__ int mb_test_par(unsigned b, unsigned par)
{ unsigned r; asm volatile("{\n\t.reg .pred p;\n\tmbarrier.test_wait.parity.shared::cta.b64 p, [%1], %2;\n\tselp.u32 %0, 1, 0, p;\n\t}" : "=r"(r) : "r"(b), "r"(par) : "memory"); return r; }
__device__ __forceinline__ int mb_try_par(unsigned b, unsigned par)
{ unsigned r; asm volatile("{\n\t.reg .pred p;\n\tmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\tselp.u32 %0, 1, 0, p;\n\t}" : "=r"(r) : "r"(b), "r"(par) : "memory"); return r; }
__device__ __forceinline__ void mb_wait_par(unsigned b, unsigned par) { while (!mb_try_par(b, par)) { } }
__device__ __forceinline__ void mb_wait(unsigned b, u64 s) { while (!mb_test(b, s)) { } }
__device__ __forceinline__ unsigned cl_rank()
{ unsigned r; asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r)); return r; }
__device__ __forceinline__ unsigned mapa(unsigned a, unsigned rank)
{ unsigned d; asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(rank)); return d; }
__device__ __forceinline__ int ld_cl(unsigned a)
{ int v; asm volatile("ld.shared::cluster.u32 %0, [%1];" : "=r"(v) : "r"(a) : "memory"); return v; }
__device__ __forceinline__ void st_cl(unsigned a, int v)
{ asm volatile("st.shared::cluster.u32 [%0], %1;" :: "r"(a), "r"(v) : "memory"); }
