// stale-parity-early-return-fixed: the single-slot mbarrier is waited on with its own phase
// parity, k % 2 (the fix of stale-parity-early-return, a real bug report,
// tile-ai/tilelang #3087).
//
// Block 64. Warp 0 is the producer: for each of TILES tiles it waits until the one shared
// slot is free (mbarrier `empty`, count 1), then one elected lane arms `full` (count 1)
// with mbarrier.arrive.expect_tx(128) and issues a 128-byte bulk copy of the tile into the
// slot (cp.async.bulk ... .mbarrier::complete_tx::bytes). Warp 1 is the consumer: it waits
// on `full` with parity k % 2, reads the slot, out[k * 32 + l] = tile[(l + k) % 32] * 10 + k,
// and releases the slot by arriving on `empty`.
//
// `full` completes one phase per tile, so tile k is phase k and its parity is k % 2; the
// consumer can never be more than one phase behind (it releases the slot only after reading
// it), so the parity always names the phase it means. The producer still sleeps
// (__nanosleep(2000)) before each refill, as in the buggy twin: slow, but harmless now.
//
// Launch: grid 1, block 64, in = 0,1,...,127 (TILES * 32), out = 128 ints.

#define TILES 4
#define TILE 32
#define TILE_BYTES (TILE * 4)

__device__ __forceinline__ unsigned smem_addr(const void *p)
{
    return static_cast<unsigned>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ void mbar_init(unsigned bar, unsigned count)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(bar), "r"(count) : "memory");
}
__device__ __forceinline__ void mbar_arrive(unsigned bar)
{
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" :: "r"(bar) : "memory");
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
__device__ __forceinline__ bool elect_one_sync()
{
    unsigned pred = 0, laneid = 0;
    asm volatile("{\n\t.reg .b32 rx;\n\t.reg .pred px;\n\t"
                 "elect.sync rx|px, %2;\n\t"
                 "@px mov.s32 %1, 1;\n\t"
                 "mov.s32 %0, rx;\n\t}"
                 : "+r"(laneid), "+r"(pred) : "r"(0xffffffffu));
    return pred != 0;
}

extern "C" __global__ void one_slot(const int *in, int *out)
{
    __shared__ __align__(8) unsigned long long full;
    __shared__ __align__(8) unsigned long long empty;
    __shared__ __align__(128) int tile[TILE];

    unsigned warp = threadIdx.x / 32;
    unsigned lane = threadIdx.x % 32;

    if (threadIdx.x == 0) {
        mbar_init(smem_addr(&full), 1);
        mbar_init(smem_addr(&empty), 1);
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    __syncthreads();

    if (warp == 0) {
        // ---- producer ----
#pragma unroll 1
        for (int k = 0; k < TILES; ++k) {
            mbar_wait_parity(smem_addr(&empty), (k & 1) ^ 1);   // the slot is free
            __nanosleep(2000);                                   // a slow producer
            if (elect_one_sync()) {
                mbar_arrive_expect_tx(smem_addr(&full), TILE_BYTES);
                bulk_copy_g2s(smem_addr(tile), in + k * TILE, TILE_BYTES, smem_addr(&full));
            }
        }
    } else {
        // ---- consumer ----
#pragma unroll 1
        for (int k = 0; k < TILES; ++k) {
            mbar_wait_parity(smem_addr(&full), k % 2);              // phase k holds tile k
            out[k * TILE + lane] = tile[(lane + k) % TILE] * 10 + k;
            __syncwarp();                                        // the warp's reads are done
            if (lane == 0)
                mbar_arrive(smem_addr(&empty));                  // the slot may be refilled
        }
    }
}
