// expect-tx-without-arrive (BUG): the producer announces the bytes of the copy with a bare
// mbarrier.expect_tx, but nobody arrives on the count-1 mbarrier, so no phase ever
// completes (tile-ai/tilelang #2566).
//
// 64 threads stream n = 192 ints through one shared tile of 64 ints (three tiles). Per tile
// k thread 0 raises the tx-count of `full` by the tile's 256 bytes and issues
// cp.async.bulk ... .mbarrier::complete_tx::bytes for it; everybody waits on parity k & 1,
// computes out[k * 64 + t] = tile[t] * 3 + tile[(t + 1) % 64], and a __syncthreads()
// frees the tile for the next copy.
//
// `full` is initialised with an arrival count of 1, the usual "the producer's
// arrive.expect_tx" count. But the producer uses mbarrier.expect_tx (CUTLASS's
// expect_transaction), which only performs expect-tx, no arrive-on. The bytes land, the
// tx-count returns to 0, and phase 0 still waits for its one pending arrival. Every thread
// spins in try_wait on phase 0: a deadlock before anything is written.
//
// Fix (expect-tx-without-arrive-fixed): mbarrier.arrive.expect_tx, which does the expect-tx
// and then the arrive-on the init count asks for.
//
// Launch: grid 1, block 64, in = 0,1,...,191, out = 192 ints, n = 192.

#define THREADS 64
#define TILE 64

__device__ __forceinline__ unsigned smem_addr(const void *p)
{
    return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

// CUTLASS ClusterTransactionBarrier::expect_transaction: tx-count += bytes, *no* arrival.
__device__ __forceinline__ void mbar_expect_tx(unsigned bar, unsigned bytes)
{
    asm volatile("mbarrier.expect_tx.shared::cta.b64 [%1], %0;" :: "r"(bytes), "r"(bar) : "memory");
}

__device__ __forceinline__ void bulk_copy_g2s(unsigned dst, const void *src, unsigned bytes, unsigned bar)
{
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                 :: "r"(dst), "l"(src), "r"(bytes), "r"(bar) : "memory");
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

extern "C" __global__ void tile_stream(const int *in, int *out, int n)
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
        int count = min(TILE, n - k * TILE);            // ints in tile k (64 here)
        unsigned bytes = count * sizeof(int);           // what the copy delivers
        if (t == 0) {
            mbar_expect_tx(bar, bytes);                 // BUG: bytes announced, but no arrival
            bulk_copy_g2s(smem_addr(tile), in + k * TILE, bytes, bar);
        }
        mbar_wait_parity(bar, k & 1);                   // phase k: tile k landed
        if (t < count)
            out[k * TILE + t] = tile[t] * 3 + tile[(t + 1) % count];
        __syncthreads();                                // tile free for the next copy
    }
}
