// multicast-bulk-copy: one bulk copy from global memory lands in the shared memory of both
// CTAs of a cluster (.multicast::cluster), the way CUTLASS / DeepGEMM share an operand tile
// between the CTAs of a cluster.
//
// Grid 2, block 64, one cluster of 2 CTAs (__cluster_dims__(2, 1, 1)). Both CTAs need the
// same 64-int tile (256 bytes). Each CTA has its own mbarrier `full` (count 1) at the same
// shared-memory offset, and its own `tile`, also at the same offset in both CTAs.
//
//   1. Thread 0 of each CTA: mbarrier.init(full, 1); fence.mbarrier_init.release.cluster.
//      Cluster barrier: CTA 1's `full` must exist before CTA 0's copy can signal it.
//   2. Thread 0 of each CTA: mbarrier.arrive.expect_tx(full, 256) on its *own* barrier:
//      "this phase needs my arrival and 256 bytes".
//      Thread 0 of CTA rank 0 only: one
//        cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster
//            [tile], [in], 256, [full], 0b11;
//      The 256 bytes land in `tile` of rank 0 *and* rank 1, and each CTA's `full` at the
//      same offset gets complete_tx(256).
//   3. Every thread waits for phase 0 of its own `full` (try_wait.parity, parity 0), then
//      out[rank * 64 + t] = tile[t] * (rank + 1) + tile[63 - t].
//   4. A final cluster barrier before exit (see lesson.md).
//
// Launch: grid 2, block 64, cluster 2, in = 0,1,...,63, out = 128 ints.

#define N 64
#define TILE 64
#define TILE_BYTES (TILE * 4)

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

extern "C" __global__ void __cluster_dims__(2, 1, 1) multicast_copy(const int *in, int *out)
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
    cluster_sync();                                      // 1: both `full` barriers exist

    if (t == 0) {
        mbar_arrive_expect_tx(bar, TILE_BYTES);          // 2: my arrival + 256 bytes for me
        if (rank == 0)
            bulk_copy_g2s_multicast(smem_addr(tile), in, TILE_BYTES, bar, 0x3);   // ranks 0 and 1
    }

    mbar_wait_parity(bar, 0);                            // 3: my copy of the tile landed
    out[rank * N + t] = tile[t] * (int)(rank + 1) + tile[TILE - 1 - t];

    cluster_sync();                                      // 4: nobody exits early
}
