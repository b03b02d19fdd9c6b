// TMA im2col loads (PTX ISA 5.5.4, 9.7.9.25.5.1): a 3-d (NWC), 4-d (NHWC) and 5-d (NDHWC) copy
// with its im2col offsets, and a 4-d copy multicast to both CTAs of a cluster; and a 4-d tensor
// store and reduction in .im2col_no_offs mode (9.7.9.25.5.1, .2). Each kernel fills
// its shared tile with -1, fences the generic proxy's writes for the async proxy, lets thread 0
// issue the copy, waits on the mbarrier and writes the whole tile out; the tests compare it
// with a naive im2col of their own.
#include <cuda.h>
#include <cstdint>

#define TILE 1024

__device__ inline void wait_parity(unsigned bar)
{
    asm volatile("{\n"
                 " .reg .pred done;\n"
                 "WAIT:\n"
                 " mbarrier.try_wait.parity.shared::cta.b64 done, [%0], 0;\n"
                 " @!done bra WAIT;\n"
                 "}" :: "r"(bar) : "memory");
}

__device__ inline void prepare(int *tile, unsigned bar, int bytes)
{
    for (int i = threadIdx.x; i < TILE; i += blockDim.x) tile[i] = -1;
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(bar));
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(bar), "r"(bytes) : "memory");
    }
    __syncthreads();
}

__device__ inline void finish(const int *tile, unsigned bar, int *out)
{
    wait_parity(bar);
    for (int i = threadIdx.x; i < TILE; i += blockDim.x) out[i] = tile[i];
}

extern "C" __global__ void tma_im2col3d(const __grid_constant__ CUtensorMap tmap, int *out,
                                        int c, int w, int n, unsigned short ow, int bytes)
{
    __shared__ alignas(1024) int tile[TILE];
    __shared__ alignas(8) uint64_t full;
    unsigned bar = static_cast<unsigned>(__cvta_generic_to_shared(&full));
    unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(&tile[0]));
    prepare(tile, bar, bytes);
    if (threadIdx.x == 0) {
        asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes"
                     " [%0], [%1, {%2, %3, %4}], [%5], {%6};"
                     :: "r"(dst), "l"(&tmap), "r"(c), "r"(w), "r"(n), "r"(bar), "h"(ow) : "memory");
    }
    finish(tile, bar, out);
}

extern "C" __global__ void tma_im2col4d(const __grid_constant__ CUtensorMap tmap, int *out,
                                        int c, int w, int h, int n, unsigned short ow, unsigned short oh, int bytes)
{
    __shared__ alignas(1024) int tile[TILE];
    __shared__ alignas(8) uint64_t full;
    unsigned bar = static_cast<unsigned>(__cvta_generic_to_shared(&full));
    unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(&tile[0]));
    prepare(tile, bar, bytes);
    if (threadIdx.x == 0) {
        asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes"
                     " [%0], [%1, {%2, %3, %4, %5}], [%6], {%7, %8};"
                     :: "r"(dst), "l"(&tmap), "r"(c), "r"(w), "r"(h), "r"(n), "r"(bar), "h"(ow), "h"(oh) : "memory");
        // The prefetch form takes the same operands (a hint: no effect on memory).
        asm volatile("cp.async.bulk.prefetch.tensor.4d.L2.global.im2col [%0, {%1, %2, %3, %4}], {%5, %6};"
                     :: "l"(&tmap), "r"(c), "r"(w), "r"(h), "r"(n), "h"(ow), "h"(oh) : "memory");
    }
    finish(tile, bar, out);
}

extern "C" __global__ void tma_im2col5d(const __grid_constant__ CUtensorMap tmap, int *out,
                                        int c, int w, int h, int d, int n,
                                        unsigned short ow, unsigned short oh, unsigned short od, int bytes)
{
    __shared__ alignas(1024) int tile[TILE];
    __shared__ alignas(8) uint64_t full;
    unsigned bar = static_cast<unsigned>(__cvta_generic_to_shared(&full));
    unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(&tile[0]));
    prepare(tile, bar, bytes);
    if (threadIdx.x == 0) {
        asm volatile("cp.async.bulk.tensor.5d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes"
                     " [%0], [%1, {%2, %3, %4, %5, %6}], [%7], {%8, %9, %10};"
                     :: "r"(dst), "l"(&tmap), "r"(c), "r"(w), "r"(h), "r"(d), "r"(n), "r"(bar),
                        "h"(ow), "h"(oh), "h"(od) : "memory");
    }
    finish(tile, bar, out);
}

// Shared tile = 1000 + index, then stored (or, with add, reduced) into the tensor as one im2col
// box in .im2col_no_offs mode (offsets 0) from filter base (w, h) of image n.
#define TMA_IM2COL_STORE(NAME, INSN) \
extern "C" __global__ void NAME(const __grid_constant__ CUtensorMap tmap, int c, int w, int h, int n) \
{ \
    __shared__ alignas(1024) int tile[TILE]; \
    unsigned src = static_cast<unsigned>(__cvta_generic_to_shared(&tile[0])); \
    for (int i = threadIdx.x; i < TILE; i += blockDim.x) tile[i] = 1000 + i; \
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory"); \
    __syncthreads(); \
    if (threadIdx.x == 0) { \
        asm volatile(INSN " [%0, {%1, %2, %3, %4}], [%5];" \
                     :: "l"(&tmap), "r"(c), "r"(w), "r"(h), "r"(n), "r"(src) : "memory"); \
        asm volatile("cp.async.bulk.commit_group;" ::: "memory"); \
        asm volatile("cp.async.bulk.wait_group 0;" ::: "memory"); \
    } \
}
TMA_IM2COL_STORE(tma_im2col_store4d, "cp.async.bulk.tensor.4d.global.shared::cta.im2col_no_offs.bulk_group")
TMA_IM2COL_STORE(tma_im2col_reduce_add4d, "cp.reduce.async.bulk.tensor.4d.global.shared::cta.add.im2col_no_offs.bulk_group")

// Cluster of 2: CTA rank 0 multicasts one im2col box to both CTAs; each CTA writes its own copy
// to out + rank * TILE.
extern "C" __global__ void __cluster_dims__(2, 1, 1)
tma_im2col4d_multicast(const __grid_constant__ CUtensorMap tmap, int *out,
                       int c, int w, int h, int n, unsigned short ow, unsigned short oh, int bytes)
{
    __shared__ alignas(1024) int tile[TILE];
    __shared__ alignas(8) uint64_t full;
    unsigned bar = static_cast<unsigned>(__cvta_generic_to_shared(&full));
    unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(&tile[0]));
    unsigned rank;
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
    prepare(tile, bar, bytes);
    asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");
    if (rank == 0 && threadIdx.x == 0) {
        unsigned short mask = 3;
        asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes.multicast::cluster"
                     " [%0], [%1, {%2, %3, %4, %5}], [%6], {%7, %8}, %9;"
                     :: "r"(dst), "l"(&tmap), "r"(c), "r"(w), "r"(h), "r"(n), "r"(bar), "h"(ow), "h"(oh), "h"(mask) : "memory");
    }
    finish(tile, bar, out + rank * TILE);
    asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");
}
