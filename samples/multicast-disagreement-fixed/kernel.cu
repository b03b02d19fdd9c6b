// multicast-disagreement-fixed: both CTAs of the cluster take the same decision about who
// loads the shared tile, so every byte a CTA expects is sent to it (the fix of
// multicast-disagreement).
//
// The scalar argument `multicast` chooses between one multicast copy issued by rank 0
// (mask 0b11, landing in both CTAs) and one plain bulk copy per CTA, each into its own
// shared memory. Every CTA evaluates the same `multicast`, so the copies match the
// expectations either way:
//
//   thread 0 of every CTA:  mbarrier.arrive.expect_tx(full, 256)
//   multicast:   thread 0 of rank 0 issues the multicast copy for ranks 0 and 1
//   otherwise:   thread 0 of each CTA copies the tile into its own `tile`
//
// The launch passes multicast = 0, the case that hung.
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

extern "C" __global__ void __cluster_dims__(2, 1, 1) multicast_agree(const int *in, int *out, int multicast)
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
        if (multicast) {                                 // the same decision in every CTA
            if (rank == 0)
                bulk_copy_g2s_multicast(smem_addr(tile), in, TILE_BYTES, bar, 0x3);   // ranks 0 and 1
        } else {
            bulk_copy_g2s(smem_addr(tile), in, TILE_BYTES, bar);   // each CTA loads its own tile
        }
    }

    mbar_wait_parity(bar, 0);                            // my 256 bytes landed
    out[rank * N + t] = tile[t] * (int)(rank + 1) + tile[TILE - 1 - t];

    cluster_sync();                                      // nobody exits early
}
