// multicast-expect-tx-cluster-size (BUG): every CTA of a 4-CTA cluster expects a multicast
// slice from each of the 4 CTAs, but the tile has only 2 slices, so only ranks 0 and 1 send
// one (tile-ai/tilelang #2644).
//
// The four CTAs of the cluster share one 64-int operand tile (256 bytes), as the CTAs along
// N of a GEMM cluster share their A tile. CUTLASS-style, the tile is cut into slices and
// each slice is loaded by one CTA and multicast to all of them (mask 0b1111). A slice is
// 32 ints (128 bytes), so the tile has NUM_SLICES = 2 slices: ranks 0 and 1 issue one
// multicast copy each, ranks 2 and 3 issue none. Every CTA's `full` (count 1) is armed by
// its thread 0 with the bytes it will receive:
//
//   thread 0 of every CTA:      mbarrier.arrive.expect_tx(full, SLICE_BYTES * CLUSTER_SIZE)
//                                                                 = 128 * 4 = 512   <-- BUG
//   thread 0 of ranks 0 and 1:  multicast slice `rank` (128 bytes) to ranks 0..3
//
// Each CTA receives 2 * 128 = 256 bytes but expects 512: the byte count was multiplied by
// the cluster size, as if every CTA of the cluster sent a slice. Every `full` keeps
// tx-count 256 forever and all 256 threads of the cluster spin in try_wait: a deadlock.
//
// Fix (multicast-expect-tx-cluster-size-fixed): multiply by the number of CTAs that really
// send, NUM_SLICES: expect SLICE_BYTES * NUM_SLICES = 256 bytes, the whole tile.
//
// Launch: grid 4, block 64, cluster 4, in = 0,1,...,63, out = 256 ints.

#define TILE 64                          // ints in the shared tile
#define SLICE 32                         // ints per multicast slice
#define SLICE_BYTES (SLICE * 4)          // 128
#define NUM_SLICES (TILE / SLICE)        // 2: ranks 0 and 1 each multicast one slice
#define CLUSTER_SIZE 4
#define CLUSTER_MASK 0xF                 // every slice goes to ranks 0, 1, 2 and 3

__device__ __forceinline__ unsigned smem_addr(const void *p)
{
    return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ unsigned cluster_rank()
{
    unsigned r;
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
    return r;
}

__device__ __forceinline__ void cluster_sync()
{
    asm volatile("barrier.cluster.arrive.aligned;\n\t"
                 "barrier.cluster.wait.aligned;" ::: "memory");
}

__device__ __forceinline__ void mbar_arrive_expect_tx(unsigned bar, unsigned bytes)
{
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%1], %0;" :: "r"(bytes), "r"(bar) : "memory");
}

// CUTLASS SM90_BULK_COPY_G2S with a multicast mask (one bit per cluster rank).
__device__ __forceinline__ void bulk_copy_g2s_multicast(unsigned dst, const void *src, unsigned bytes, unsigned bar,
                                                        unsigned short cta_mask)
{
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster"
                 " [%0], [%1], %2, [%3], %4;"
                 :: "r"(dst), "l"(src), "r"(bytes), "r"(bar), "h"(cta_mask) : "memory");
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

extern "C" __global__ void __cluster_dims__(CLUSTER_SIZE, 1, 1) multicast_slices(const int *in, int *out)
{
    __shared__ __align__(8) unsigned long long full;
    __shared__ __align__(128) int tile[TILE];

    unsigned rank = cluster_rank();
    unsigned t = threadIdx.x;
    unsigned bar = smem_addr(&full);

    if (t == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(bar), "r"(1) : "memory");
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    cluster_sync();                                      // all four `full` barriers exist

    if (t == 0) {
        mbar_arrive_expect_tx(bar, SLICE_BYTES * CLUSTER_SIZE);   // BUG: 512, but only NUM_SLICES = 2 CTAs send
        if (rank < NUM_SLICES)                           // ranks 0 and 1: slice `rank` to every CTA
            bulk_copy_g2s_multicast(smem_addr(&tile[rank * SLICE]), in + rank * SLICE, SLICE_BYTES, bar,
                                    CLUSTER_MASK);
    }

    mbar_wait_parity(bar, 0);                            // every CTA: waits for 256 bytes that never come
    out[rank * TILE + t] = tile[t] * (int)(rank + 1) + tile[TILE - 1 - t];

    cluster_sync();                                      // nobody exits early
}
