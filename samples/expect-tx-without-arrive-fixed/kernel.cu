// expect-tx-without-arrive-fixed: the producer arms the count-1 mbarrier with
// mbarrier.arrive.expect_tx, which both announces the bytes and makes the one arrival the
// init count asks for (the fix of expect-tx-without-arrive).
//
// 64 threads stream n = 192 ints through one shared tile of 64 ints (three tiles). Per tile
// k thread 0 arrives on `full` with expect_tx(256) and issues cp.async.bulk ...
// .mbarrier::complete_tx::bytes for the tile; everybody waits on parity k & 1, computes
// out[k * 64 + t] = tile[t] * 3 + tile[(t + 1) % 64], and a __syncthreads() frees the tile
// for the next copy. Phase k completes when the arrival is in (pending 0) and the 256
// bytes have landed (tx-count 0).
//
// Launch: grid 1, block 64, in = 0,1,...,191, out = 192 ints, n = 192.

#define THREADS 64
#define TILE 64

__device__ __forceinline__ unsigned smem_addr(const void *p)
{
    return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

// CUTLASS ClusterTransactionBarrier::arrive_and_expect_tx: tx-count += bytes, then arrive.
__device__ __forceinline__ void mbar_arrive_expect_tx(unsigned bar, unsigned bytes)
{
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%1], %0;" :: "r"(bytes), "r"(bar) : "memory");
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
            mbar_arrive_expect_tx(bar, bytes);          // bytes announced and the one arrival
            bulk_copy_g2s(smem_addr(tile), in + k * TILE, bytes, bar);
        }
        mbar_wait_parity(bar, k & 1);                   // phase k: tile k landed
        if (t < count)
            out[k * TILE + t] = tile[t] * 3 + tile[(t + 1) % count];
        __syncthreads();                                // tile free for the next copy
    }
}
