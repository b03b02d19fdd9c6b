// stale-parity-single-slot (a real bug report, tile-ai/tilelang #3087): a race, not a hang.
//
// Warp 0 produces, warps 1 and 2 (64 threads) consume, through ONE shared-memory stage fed
// by bulk asynchronous copies (cp.async.bulk + mbarrier complete_tx), with the barriers
//   full  count 1   armed by the elected producer lane with expect_tx(256)
//   empty count 64  every consumer thread arrives when it has read the stage
// The bug: the consumers compute their wait parity with the formula of a 2-stage ring,
// (t / 2) % 2, but the barrier has a single slot whose phase flips every tile, so the right
// parity is t % 2. For tile 1 they wait for parity 0, a phase that already completed: the
// wait returns true at once, and they read the stage while the copy of tile 1 is landing in
// it. Nothing orders that copy's bytes before their reads: `race`, whether the copy lands
// before or after the reads. The last tile's stage is not released (nobody refills it), and
// the producer drains the last copy before exiting, so this schedule shows only the race.
//
// Launch: grid 1, block 96, in = 0,1,...,127 (TILES * 64), out = 128 ints.

#define TILES 2
#define TILE 64
#define TILE_BYTES (TILE * 4)
#define CONSUMERS 64

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

extern "C" __global__ void stale_parity(const int *in, int *out)
{
    __shared__ __align__(8) unsigned long long full;
    __shared__ __align__(8) unsigned long long empty;
    __shared__ __align__(128) int tile[TILE];

    unsigned tid = threadIdx.x;
    if (tid == 0) {
        mbar_init(smem_addr(&full), 1);
        mbar_init(smem_addr(&empty), CONSUMERS);
    }
    __syncthreads();

    if (tid < 32) {
        if (tid == 0) {
#pragma unroll 1
            for (int t = 0; t < TILES; ++t) {
                mbar_wait_parity(smem_addr(&empty), (t & 1) ^ 1);   // correct: producer start state
                mbar_arrive_expect_tx(smem_addr(&full), TILE_BYTES);
                bulk_copy_g2s(smem_addr(tile), in + t * TILE, TILE_BYTES, smem_addr(&full));
            }
            mbar_wait_parity(smem_addr(&full), (TILES - 1) & 1);    // drain the last copy
        }
    } else {
        unsigned c = tid - 32;
#pragma unroll 1
        for (int t = 0; t < TILES; ++t) {
            mbar_wait_parity(smem_addr(&full), (t / 2) % 2);       // BUG: a 2-stage ring's parity
            int v = tile[c] * 3 + tile[TILE - 1 - c];
            if (t + 1 < TILES) mbar_arrive(smem_addr(&empty));      // the last stage is not refilled
            out[t * TILE + c] = v;
        }
    }
}
