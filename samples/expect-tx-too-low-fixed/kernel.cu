// expect-tx-too-low-fixed: the transaction count announced to the mbarrier is the whole
// box, which is what a TMA copy delivers, also for the partial last tile (the fix of
// expect-tx-too-low, mirage-project/mirage #705).
//
// 64 threads stream a tensor of n = 160 ints through one shared tile of 64 ints with TMA
// loads (cp.async.bulk.tensor.1d, a tensor map with box size 64). Per tile k thread 0
// arms the count-1 mbarrier `full` with mbarrier.arrive.expect_tx(TILE * sizeof(int)) and
// issues the tensor copy of the box at coordinate k * 64; everybody waits on parity k & 1,
// computes out[k * 64 + t] = tile[t] * 3 + tile[(t + 1) % count] for the `count` ints the
// tile really has, and a __syncthreads() frees the tile for the next copy. The last box
// holds 32 ints of the tensor and 32 zeros filled in by the TMA unit: 256 bytes expected,
// 256 delivered.
//
// Launch: grid 1, block 64, tensor map over in = 0,1,...,159 (dims [160], box [64]),
// out = 160 ints, n = 160.
#include <cuda.h>

#define TILE 64

__device__ __forceinline__ unsigned smem_addr(const void *p)
{
    return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ void mbar_arrive_expect_tx(unsigned bar, unsigned bytes)
{
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%1], %0;" :: "r"(bytes), "r"(bar) : "memory");
}

// TMA: copy the box at coordinate x of the 1-d tensor described by tmap, completing the
// box's bytes on the mbarrier.
__device__ __forceinline__ void tma_load_1d(unsigned dst, const CUtensorMap *tmap, int x, unsigned bar)
{
    asm volatile("cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                 " [%0], [%1, {%2}], [%3];"
                 :: "r"(dst), "l"(tmap), "r"(x), "r"(bar) : "memory");
}

__device__ __forceinline__ void mbar_wait_parity(unsigned bar, unsigned parity)
{
    asm volatile("{\n\t"
                 ".reg .pred P1;\n"
                 "LAB_WAIT:\n\t"
                 "mbarrier.try_wait.parity.shared::cta.b64 P1, [%0], %1;\n\t"
                 "@P1 bra DONE;\n\t"
                 "bra LAB_WAIT;\n"
                 "DONE:\n\t"
                 "}"
                 :: "r"(bar), "r"(parity) : "memory");
}

extern "C" __global__ void edge_boxes(const __grid_constant__ CUtensorMap tmap, int *out, int n)
{
    __shared__ __align__(8) unsigned long long full;
    __shared__ __align__(128) int tile[TILE];

    unsigned t = threadIdx.x;
    unsigned bar = smem_addr(&full);
    int tiles = (n + TILE - 1) / TILE;

    if (t == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(bar), "r"(1) : "memory");
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    __syncthreads();

#pragma unroll 1
    for (int k = 0; k < tiles; ++k) {
        int count = min(TILE, n - k * TILE);            // ints in tile k: 64, 64, then 32
        if (t == 0) {
            mbar_arrive_expect_tx(bar, TILE * sizeof(int));    // the whole box, edge tiles too
            tma_load_1d(smem_addr(tile), &tmap, k * TILE, bar);
        }
        mbar_wait_parity(bar, k & 1);                   // phase k: tile k landed
        if (t < count)
            out[k * TILE + t] = tile[t] * 3 + tile[(t + 1) % count];
        __syncthreads();                                // tile free for the next copy
    }
}
