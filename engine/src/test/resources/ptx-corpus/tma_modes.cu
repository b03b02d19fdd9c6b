// TMA forms beyond the tile load: a 5-d box load, tensor stores and reductions from shared memory
// to global memory in bulk groups, plain bulk reductions, and the prefetch forms. Each kernel
// writes its shared tile, fences the generic proxy's writes for the async proxy, then lets thread
// 0 issue the copy; the tests check the global buffers against references of their own.
#include <cuda.h>
#include <cstdint>

__device__ inline void wait_parity(unsigned bar)
{
    asm volatile("{\n"
                 " .reg .pred done;\n"
                 "WAIT:\n"
                 " mbarrier.try_wait.parity.shared::cta.b64 done, [%0], 0;\n"
                 " @!done bra WAIT;\n"
                 "}" :: "r"(bar) : "memory");
}

extern "C" __global__ void tma_load5d(const __grid_constant__ CUtensorMap tmap, int *out,
                                      int c0, int c1, int c2, int c3, int c4, int bytes)
{
    __shared__ alignas(1024) int tile[256];
    __shared__ alignas(8) uint64_t full;
    unsigned bar = static_cast<unsigned>(__cvta_generic_to_shared(&full));
    unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(&tile[0]));
    tile[threadIdx.x] = -1;
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(bar));
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(bar), "r"(bytes) : "memory");
        asm volatile("cp.async.bulk.tensor.5d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                     " [%0], [%1, {%2, %3, %4, %5, %6}], [%7];"
                     :: "r"(dst), "l"(&tmap), "r"(c0), "r"(c1), "r"(c2), "r"(c3), "r"(c4), "r"(bar) : "memory");
    }
    __syncthreads();
    wait_parity(bar);
    out[threadIdx.x] = tile[threadIdx.x];
}

// Shared tile = 1000 + index, then one box stored at (c0, c1) of the tensor.
extern "C" __global__ void tma_store2d(const __grid_constant__ CUtensorMap tmap, int c0, int c1)
{
    __shared__ alignas(1024) int tile[256];
    unsigned src = static_cast<unsigned>(__cvta_generic_to_shared(&tile[0]));
    tile[threadIdx.x] = 1000 + threadIdx.x;
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    if (threadIdx.x == 0) {
        asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%0, {%1, %2}], [%3];"
                     :: "l"(&tmap), "r"(c0), "r"(c1), "r"(src) : "memory");
        asm volatile("cp.async.bulk.commit_group;" ::: "memory");
        asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
        asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
    }
}

// Shared tile = index - 100 (negative for the first ones), then reduced into the box at (c0, c1).
#define TMA_REDUCE(NAME, OP) \
extern "C" __global__ void NAME(const __grid_constant__ CUtensorMap tmap, int c0, int c1) \
{ \
    __shared__ alignas(1024) int tile[256]; \
    unsigned src = static_cast<unsigned>(__cvta_generic_to_shared(&tile[0])); \
    tile[threadIdx.x] = (int)threadIdx.x - 100; \
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory"); \
    __syncthreads(); \
    if (threadIdx.x == 0) { \
        asm volatile("cp.reduce.async.bulk.tensor.2d.global.shared::cta." OP ".tile.bulk_group [%0, {%1, %2}], [%3];" \
                     :: "l"(&tmap), "r"(c0), "r"(c1), "r"(src) : "memory"); \
        asm volatile("cp.async.bulk.commit_group;" ::: "memory"); \
        asm volatile("cp.async.bulk.wait_group 0;" ::: "memory"); \
    } \
}
TMA_REDUCE(tma_reduce_add, "add")
TMA_REDUCE(tma_reduce_min, "min")
TMA_REDUCE(tma_reduce_max, "max")
TMA_REDUCE(tma_reduce_inc, "inc")
TMA_REDUCE(tma_reduce_dec, "dec")
TMA_REDUCE(tma_reduce_and, "and")
TMA_REDUCE(tma_reduce_or, "or")
TMA_REDUCE(tma_reduce_xor, "xor")

// Plain bulk reductions: 256 u32 of shared memory (3 * index + 1) added to out, shared to global in a bulk group.
extern "C" __global__ void bulk_reduce_add(unsigned *out)
{
    __shared__ alignas(128) unsigned tile[256];
    unsigned src = static_cast<unsigned>(__cvta_generic_to_shared(&tile[0]));
    tile[threadIdx.x] = 3 * threadIdx.x + 1;
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    if (threadIdx.x == 0) {
        asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 [%0], [%1], 1024;"
                     :: "l"(out), "r"(src) : "memory");
        asm volatile("cp.async.bulk.commit_group;" ::: "memory");
        asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
    }
}

// Plain bulk reduction between shared memories of one CTA through shared::cluster, completed on an mbarrier.
extern "C" __global__ void bulk_reduce_shared(unsigned *out)
{
    __shared__ alignas(128) unsigned a[256];
    __shared__ alignas(128) unsigned b[256];
    __shared__ alignas(8) uint64_t full;
    unsigned bar = static_cast<unsigned>(__cvta_generic_to_shared(&full));
    unsigned src = static_cast<unsigned>(__cvta_generic_to_shared(&a[0]));
    unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(&b[0]));
    a[threadIdx.x] = threadIdx.x;
    b[threadIdx.x] = 7 * threadIdx.x;
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(bar));
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], 1024;" :: "r"(bar) : "memory");
        asm volatile("cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.min.u32 [%0], [%1], 1024, [%2];"
                     :: "r"(dst), "r"(src), "r"(bar) : "memory");
    }
    __syncthreads();
    wait_parity(bar);
    out[threadIdx.x] = b[threadIdx.x];
}

// The prefetch forms: hints with no effect on memory; the kernel then copies in[i] to out[i].
extern "C" __global__ void tma_prefetch(const __grid_constant__ CUtensorMap tmap, const int *in, int *out)
{
    if (threadIdx.x == 0) {
        asm volatile("prefetch.tensormap [%0];" :: "l"(&tmap) : "memory");
        asm volatile("cp.async.bulk.prefetch.tensor.2d.L2.global.tile [%0, {%1, %2}];" :: "l"(&tmap), "r"(0), "r"(0) : "memory");
        asm volatile("cp.async.bulk.prefetch.L2.global [%0], 256;" :: "l"(in) : "memory");
    }
    out[threadIdx.x] = in[threadIdx.x];
}
