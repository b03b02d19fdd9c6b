// multicast-disagreement (BUG): the two CTAs of a cluster disagree about who loads the
// shared tile, and CTA 1 waits for bytes that nobody sends (a real bug report,
// deepseek-ai/DeepGEMM #415, #429).
//
// The kernel is multicast-bulk-copy with a switch: the scalar argument `multicast` says
// whether rank 0 should multicast the tile to both CTAs (mask 0b11) or, when multicast is
// off (here: the launch passes 0, as for a problem size whose tiles cannot be shared),
// load it with a plain bulk copy. Only rank 0 looks at the switch:
//
//   thread 0 of every CTA:  mbarrier.arrive.expect_tx(full, 256)   -- "256 bytes for me"
//   thread 0 of rank 0:     multicast ? multicast copy to ranks 0 and 1
//                                     : copy into rank 0 only            <-- BUG
//
// With multicast == 0, rank 1 still expects 256 bytes on its own `full`, but no copy
// targets it: its phase 0 keeps tx-count 256 forever, its threads spin in try_wait, and
// rank 0 then waits at the final cluster barrier for rank 1's threads: a deadlock.
//
// Fix (multicast-disagreement-fixed): every CTA derives the same decision; when the tile is
// not multicast, each CTA issues its own copy for the bytes it expects.
//
// Launch: grid 2, block 64, cluster 2, in = 0,1,...,63, out = 128 ints, multicast = 0.

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

// CUTLASS SM90_BULK_COPY_G2S: into the executing CTA's own shared memory only.
__device__ __forceinline__ void bulk_copy_g2s(unsigned dst, const void *src, unsigned bytes, unsigned bar)
{
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                 :: "r"(dst), "l"(src), "r"(bytes), "r"(bar) : "memory");
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

extern "C" __global__ void __cluster_dims__(2, 1, 1) multicast_disagree(const int *in, int *out, int multicast)
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
    cluster_sync();                                      // both `full` barriers exist

    if (t == 0) {
        mbar_arrive_expect_tx(bar, TILE_BYTES);          // every CTA: my arrival + 256 bytes for me
        if (rank == 0) {
            if (multicast)
                bulk_copy_g2s_multicast(smem_addr(tile), in, TILE_BYTES, bar, 0x3);   // ranks 0 and 1
            else
                bulk_copy_g2s(smem_addr(tile), in, TILE_BYTES, bar);   // BUG: rank 0 only, rank 1 still expects
        }
    }

    mbar_wait_parity(bar, 0);                            // rank 1: waits for 256 bytes forever
    out[rank * N + t] = tile[t] * (int)(rank + 1) + tile[TILE - 1 - t];

    cluster_sync();                                      // rank 0: waits for rank 1 forever
}
