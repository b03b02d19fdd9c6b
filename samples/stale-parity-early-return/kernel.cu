// stale-parity-early-return (BUG): a single-slot mbarrier waited on with the parity formula
// of a multi-stage ring, (k / STAGES) % 2; every other wait names a phase that completed
// long ago, returns true at once, and the consumer reads a tile that is not there yet
// (tile-ai/tilelang #3087).
//
// Block 64. Warp 0 is the producer: for each of TILES tiles it waits until the one shared
// slot is free (mbarrier `empty`, count 1), then one elected lane arms `full` (count 1)
// with mbarrier.arrive.expect_tx(128) and issues a 128-byte bulk copy of the tile into the
// slot (cp.async.bulk ... .mbarrier::complete_tx::bytes). Warp 1 is the consumer: it waits
// on `full`, reads the slot, out[k * 32 + l] = tile[(l + k) % 32] * 10 + k, and releases
// the slot by arriving on `empty`.
//
// The bug: the consumer's parity is computed as for a ring of STAGES = 2 slots, where slot
// k % 2 completes its phases every other tile: (k / 2) % 2 = 0, 0, 1, 1. But there is one
// slot, and `full` completes a phase for every tile: the right parity is k % 2. For k = 1
// the consumer asks for parity 0; `full` is in phase 1, so parity 0 names the *preceding*
// phase, which completed with tile 0, and the wait returns true at once: warp 1 reads tile
// 0 again as if it were tile 1. For k = 2 it asks for parity 1, waits for tile 1, and
// computes tile 2's outputs from it; for k = 3, parity 1 is stale again. Every result
// after tile 0 is computed from the wrong tile, and nothing hangs. Having skipped a wait,
// the consumer also releases the slot twice in a row: its arrive on `empty` for k = 3
// comes before anybody saw `empty` complete phase 2, which PTX ISA 9.7.13.15.4 forbids;
// BarrierScope stops there with mbarrier-phase-unobserved.
//
// On a GPU whether the early return reads the old tile, a half-overwritten one or (by
// luck) the right one depends on how fast the producer is; here the producer sleeps
// (__nanosleep(2000)) before each refill, slower than the consumer, so every run reads the
// old tile. The race detector reports the read as racing with the copy.
//
// Fix (stale-parity-early-return-fixed): wait on parity k % 2, the phase count of this
// barrier, not the ring's.
//
// Launch: grid 1, block 64, in = 0,1,...,127 (TILES * 32), out = 128 ints.

#define TILES 4
#define TILE 32
#define TILE_BYTES (TILE * 4)
#define STAGES 2            // copied from the ring this code came from; here there is one slot

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
            mbar_wait_parity(smem_addr(&full), (k / STAGES) % 2);   // BUG: must be k % 2
            out[k * TILE + lane] = tile[(lane + k) % TILE] * 10 + k;
            __syncwarp();                                        // the warp's reads are done
            if (lane == 0)
                mbar_arrive(smem_addr(&empty));                  // the slot may be refilled
        }
    }
}
