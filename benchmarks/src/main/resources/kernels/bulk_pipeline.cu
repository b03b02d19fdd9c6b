// bulk_pipeline: the interpreter benchmark's long mbarrier / bulk-copy pipeline (benchmarks/,
// docs/performance.md, "The bulk-copy pipeline kernel").
//
// The pattern of samples/bulk-copy-pipeline (CUTLASS PipelineTmaAsync): warp 0 of each CTA is
// the producer, warps 1 and 2 (64 threads) the consumers, and tiles of 64 ints go through a ring
// of shared-memory stages. Each stage has two mbarriers:
//
//   full[s]  count 1   the elected producer lane arrives with expect_tx(256); the bulk copy
//                      (cp.async.bulk ... mbarrier::complete_tx::bytes) completes the bytes
//   empty[s] count 64  every consumer thread arrives when it has read stage s
//
// Both sides wait with mbarrier.try_wait.parity and keep a (stage, phase) pipeline state. The
// sample moves 6 tiles (about 640 warp steps, so a run mostly measures setup); this kernel
// moves `tiles` tiles per CTA through 4 stages so a run reaches a steady state. The consumers
// accumulate (like a GEMM main loop) instead of storing every tile, so the output stays small:
// each CTA reads its tiles cyclically from `in_tiles` input tiles.
//
// Launch: grid 2, block 96 (3 warps), in = 0,1,...,in_tiles*64-1, out = 2*64 unsigned,
// tiles = 1024, in_tiles = 64. For CTA b, consumer c (0..63), k = 0..tiles-1 with
// src = (b * 7 + k) % in_tiles and x = in[src * 64 + c], y = in[src * 64 + 63 - c]:
//   acc = acc * 3 + (x ^ y) + k   (unsigned, mod 2^32, acc starts at c)
//   out[b * 64 + c] = acc
// bulk_pipeline_expect.py next to this file computes launch.json's expect block that way.

#define STAGES 4
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

// CUTLASS fence_barrier_init(): makes the inits visible to other threads and to the async proxy.
__device__ __forceinline__ void fence_barrier_init()
{
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}

__device__ __forceinline__ void mbar_arrive(unsigned bar)
{
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" :: "r"(bar) : "memory");
}

// CUTLASS ClusterTransactionBarrier::arrive_and_expect_tx: tx-count += bytes, then arrive.
__device__ __forceinline__ void mbar_arrive_expect_tx(unsigned bar, unsigned bytes)
{
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%1], %0;" :: "r"(bytes), "r"(bar) : "memory");
}

// CUTLASS SM90_BULK_COPY_G2S: global -> shared bulk copy, completing `bytes` on the mbarrier.
__device__ __forceinline__ void bulk_copy_g2s(unsigned dst, const void *src, unsigned bytes, unsigned bar)
{
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                 :: "r"(dst), "l"(src), "r"(bytes), "r"(bar) : "memory");
}

// CUTLASS ClusterBarrier::wait: try_wait.parity in a loop inside the asm.
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

// CUTLASS elect_one_sync(): true in exactly one lane of the (fully active) warp.
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

struct PipeState {
    unsigned stage, phase;
    __device__ void advance()
    {
        if (++stage == STAGES) {
            stage = 0;
            phase ^= 1;
        }
    }
};

extern "C" __global__ void bulk_pipeline(const unsigned *in, unsigned *out, int tiles, int in_tiles)
{
    __shared__ __align__(8) unsigned long long full[STAGES];
    __shared__ __align__(8) unsigned long long empty[STAGES];
    __shared__ __align__(128) unsigned tile[STAGES][TILE];   // bulk copies need 16-byte alignment

    unsigned tid = threadIdx.x;
    unsigned warp = tid / 32;

    if (tid == 0) {
        for (int s = 0; s < STAGES; ++s) {
            mbar_init(smem_addr(&full[s]), 1);            // the elected producer lane
            mbar_init(smem_addr(&empty[s]), CONSUMERS);   // every consumer thread
        }
        fence_barrier_init();
    }
    __syncthreads();

    if (warp == 0) {
        // ---- producer warp ----
        PipeState st = {0, 1};                            // producer start state: phase 1
        int src = (blockIdx.x * 7) % in_tiles;
#pragma unroll 1
        for (int k = 0; k < tiles; ++k) {
            mbar_wait_parity(smem_addr(&empty[st.stage]), st.phase);   // stage free?
            if (elect_one_sync()) {
                unsigned full_bar = smem_addr(&full[st.stage]);
                mbar_arrive_expect_tx(full_bar, TILE_BYTES);            // arm: 1 arrival + 256 bytes
                bulk_copy_g2s(smem_addr(&tile[st.stage][0]), in + src * TILE, TILE_BYTES, full_bar);
            }
            __syncwarp();
            st.advance();
            if (++src == in_tiles) src = 0;
        }
    } else {
        // ---- consumer warps ----
        unsigned c = tid - 32;
        unsigned acc = c;
        PipeState st = {0, 0};
#pragma unroll 1
        for (int k = 0; k < tiles; ++k) {
            mbar_wait_parity(smem_addr(&full[st.stage]), st.phase);    // tile landed?
            unsigned x = tile[st.stage][c];
            unsigned y = tile[st.stage][TILE - 1 - c];
            mbar_arrive(smem_addr(&empty[st.stage]));                  // done reading stage
            acc = acc * 3u + (x ^ y) + (unsigned) k;
            st.advance();
        }
        out[blockIdx.x * CONSUMERS + c] = acc;
    }
}
