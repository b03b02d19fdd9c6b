#include <cuda.h>
// bulk-copy-pipeline: a two-stage warp-specialised pipeline fed by bulk asynchronous copies
// (the non-tensor "TMA" path, cp.async.bulk), the way CUTLASS's PipelineTmaAsync drives it.
//
// Warp 0 is the producer, warps 1 and 2 (64 threads) the consumers. Six tiles of 64 ints
// (256 bytes each) go through a ring of two shared-memory stages. Each stage has two mbarriers:
//
//   full[s]  count 1   the elected producer lane arrives with expect_tx(256); the bulk copy
//                      then completes the 256 transaction bytes when the tile has landed
//   empty[s] count 64  every consumer thread arrives when it has read stage s
//
// Nobody in the producer warp stores the tile: one lane chosen by elect.sync arms full[s]
// with mbarrier.arrive.expect_tx and hands the copy to the async unit with
// cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes. full[s] completes its
// phase only when both the arrival (pending count 0) and the bytes (tx-count 0) are in.
// Both sides wait with mbarrier.try_wait.parity and keep a (stage, phase) pipeline state;
// the producer starts with phase 1 so its first waits on the fresh empty barriers pass.
//
// Launch: grid 1, block 96, in = 0,1,...,383 (TILES * 64), out = 384 ints.
// out[t * 64 + c] = 5 * in[t * 64 + c] - in[t * 64 + 63 - c] + t

#define STAGES 2
#define TILES 6
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
// TMA: copy the box at coordinates (x, y) of the tensor described by tmap (the box is one tile row)
__device__ __forceinline__ void tma_load_2d(unsigned dst, const CUtensorMap *tmap, int x, int y, unsigned bar)
{
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                 " [%0], [%1, {%2, %3}], [%4];"
                 :: "r"(dst), "l"(tmap), "r"(x), "r"(y), "r"(bar) : "memory");
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

extern "C" __global__ void tma_pipeline(const __grid_constant__ CUtensorMap tmap, int *out)
{
    __shared__ __align__(8) unsigned long long full[STAGES];
    __shared__ __align__(8) unsigned long long empty[STAGES];
    __shared__ __align__(128) int tile[STAGES][TILE];   // bulk copies need 16-byte alignment

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
#pragma unroll 1
        for (int t = 0; t < TILES; ++t) {
            mbar_wait_parity(smem_addr(&empty[st.stage]), st.phase);   // stage free?
            if (elect_one_sync()) {
                unsigned full_bar = smem_addr(&full[st.stage]);
                mbar_arrive_expect_tx(full_bar, TILE_BYTES);            // arm: 1 arrival + 256 bytes
                tma_load_2d(smem_addr(&tile[st.stage][0]), &tmap, 0, t, full_bar);
            }
            __syncwarp();
            st.advance();
        }
    } else {
        // ---- consumer warps ----
        unsigned c = tid - 32;
        PipeState st = {0, 0};
#pragma unroll 1
        for (int t = 0; t < TILES; ++t) {
            mbar_wait_parity(smem_addr(&full[st.stage]), st.phase);    // tile landed?
            int v = 5 * tile[st.stage][c] - tile[st.stage][TILE - 1 - c];
            mbar_arrive(smem_addr(&empty[st.stage]));                  // done reading stage
            out[t * TILE + c] = v + t;
            st.advance();
        }
    }
}
