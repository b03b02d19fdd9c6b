// expect-tx-too-high-fixed: the transaction count announced to the mbarrier is exactly what
// the copy delivers, also for the partial last tile (the fix of expect-tx-too-high,
// a real bug report).
//
// 64 threads stream an array of n = 160 ints through one shared tile of 64 ints. Per tile k
// thread 0 arms the count-1 mbarrier `full` with mbarrier.arrive.expect_tx(bytes) and issues
// cp.async.bulk ... .mbarrier::complete_tx::bytes of the same `bytes`; everybody waits on
// parity k & 1, computes out[k * 64 + t] = tile[t] * 3 + tile[(t + 1) % count], and a
// __syncthreads() frees the tile for the next copy. The last tile holds 32 ints: 128 bytes
// are expected and 128 delivered.
//
// Launch: grid 1, block 64, in = 0,1,...,159, out = 160 ints, n = 160.

#define THREADS 64
#define TILE 64

__device__ __forceinline__ unsigned smem_addr(const void *p)
{
    return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

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

extern "C" __global__ void edge_tiles(const int *in, int *out, int n)
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
        unsigned bytes = count * sizeof(int);           // what the copy delivers
        if (t == 0) {
            mbar_arrive_expect_tx(bar, bytes);          // exactly what the copy delivers
            bulk_copy_g2s(smem_addr(tile), in + k * TILE, bytes, bar);
        }
        mbar_wait_parity(bar, k & 1);                   // phase k: tile k landed
        if (t < count)
            out[k * TILE + t] = tile[t] * 3 + tile[(t + 1) % count];
        __syncthreads();                                // tile free for the next copy
    }
}
