// mbarrier-parity-pipeline: a two-stage warp-specialised pipeline on full/empty mbarriers,
// waited on by phase parity, the way CUTLASS's PipelineAsync / ClusterBarrier do it.
//
// Warp 0 is the producer, warps 1 and 2 (64 threads) the consumers. Six tiles of 64 ints
// go through a ring of two shared-memory stages. Each stage has two mbarriers:
//
//   full[s]  count 1   one elected producer lane arrives when stage s holds a tile
//   empty[s] count 64  every consumer thread arrives when it has read stage s
//
// Both sides keep a pipeline state (stage, phase) and wait with
// mbarrier.try_wait.parity on `phase`, flipping it each time the stage index wraps.
// The producer starts with phase 1: its first wait on each fresh empty[s] asks for the
// parity of the phase *before* phase 0, which counts as complete, so it passes at once
// (CUTLASS's make_producer_start_state). The consumers start with phase 0.
// Data moves by ordinary st.shared / ld.shared, no async copies.
//
// Launch: grid 1, block 96, in = 0,1,...,383 (TILES * 64), out = 384 ints.

#define STAGES 2
#define TILES 6
#define TILE 64
#define CONSUMERS 64

__device__ __forceinline__ unsigned smem_addr(const void *p)
{
    return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ void mbar_init(unsigned bar, unsigned count)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(bar), "r"(count) : "memory");
}

// Arrive without keeping the state token (sink `_`): parity waits do not need it.
__device__ __forceinline__ void mbar_arrive(unsigned bar)
{
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" :: "r"(bar) : "memory");
}

// CUTLASS ClusterBarrier::wait: the spin loop is inside the asm, with a suspend-time hint
// of 0x989680 ns (10 ms) for each try_wait. The labels are local to the { } block.
__device__ __forceinline__ void mbar_wait_parity_hint(unsigned bar, unsigned parity)
{
    asm volatile("{\n\t"
                 ".reg .pred P1;\n"
                 "LAB_WAIT:\n\t"
                 "mbarrier.try_wait.parity.shared::cta.b64 P1, [%0], %1, %2;\n\t"
                 "@P1 bra DONE;\n\t"
                 "bra LAB_WAIT;\n"
                 "DONE:\n\t"
                 "}"
                 :: "r"(bar), "r"(parity), "r"(0x989680) : "memory");
}

// One try_wait.parity without a hint; the caller loops.
__device__ __forceinline__ bool mbar_try_wait_parity(unsigned bar, unsigned parity)
{
    unsigned done;
    asm volatile("{\n\t.reg .pred p;\n\t"
                 "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\t"
                 "selp.u32 %0, 1, 0, p;\n\t}"
                 : "=r"(done) : "r"(bar), "r"(parity) : "memory");
    return done != 0;
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

extern "C" __global__ void pipeline2(const int *in, int *out)
{
    __shared__ __align__(8) unsigned long long full[STAGES];
    __shared__ __align__(8) unsigned long long empty[STAGES];
    __shared__ int tile[STAGES][TILE];

    unsigned tid = threadIdx.x;
    unsigned warp = tid / 32;
    unsigned lane = tid % 32;

    if (tid == 0) {
        for (int s = 0; s < STAGES; ++s) {
            mbar_init(smem_addr(&full[s]), 1);            // the elected producer lane
            mbar_init(smem_addr(&empty[s]), CONSUMERS);   // every consumer thread
        }
    }
    __syncthreads();

    if (warp == 0) {
        // ---- producer ----
        PipeState st = {0, 1};                            // producer start state: phase 1
#pragma unroll 1
        for (int t = 0; t < TILES; ++t) {
            mbar_wait_parity_hint(smem_addr(&empty[st.stage]), st.phase);   // stage free?
            tile[st.stage][lane] = in[t * TILE + lane] * 2;
            tile[st.stage][lane + 32] = in[t * TILE + lane + 32] * 2 + 1;
            __syncwarp();                                 // all lanes' stores before the arrive
            if (elect_one_sync())
                mbar_arrive(smem_addr(&full[st.stage]));  // stage holds tile t
            st.advance();
        }
    } else {
        // ---- consumers ----
        unsigned c = tid - 32;
        PipeState st = {0, 0};
#pragma unroll 1
        for (int t = 0; t < TILES; ++t) {
            while (!mbar_try_wait_parity(smem_addr(&full[st.stage]), st.phase)) {
            }
            int v = tile[st.stage][c] * 100 + tile[st.stage][TILE - 1 - c];
            mbar_arrive(smem_addr(&empty[st.stage]));     // done reading: stage may be refilled
            out[t * TILE + c] = v + t;
            st.advance();
        }
    }
}
