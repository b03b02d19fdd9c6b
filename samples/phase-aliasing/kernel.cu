// phase-aliasing (BUG): only the leader warp of the consumer group releases a stage, so the
// producer refills it twice while a sibling warp still waits for the first fill; the
// sibling then waits on a parity that names a phase that will never complete again
// (triton-lang/triton #10035).
//
// Warp 0 is the producer; warps 1 and 2 are one consumer group (64 threads). Four tiles of
// 64 ints pass through a ring of two shared-memory stages, each with two mbarriers:
//
//   ready[s]  count 1  one elected producer lane arrives when stage s holds a tile
//   empty[s]  count 1  BUG: only the leader warp (warp 1) arrives, after its own wait
//                      on ready[s] and its own reads
//
// Both sides wait with mbarrier.try_wait.parity on the ring's phase bit, which flips each
// time the stage index wraps (producer start state: phase 1). Nothing makes the producer
// wait for warp 2: as soon as warp 1 has read stage 0, the producer may refill it, and
// ready[0] moves on to phase 1, then (tile 2) to phase 2. A warp that has not yet passed
// its wait for phase 0 now asks for parity 0 again, and parity 0 is the current phase 2,
// which will never complete: the producer is done. Warp 2 hangs.
//
// On a GPU the sibling is late by chance (it was scheduled less, it missed in the cache);
// here warp 2 starts with __nanosleep(20000) so that every run is the unlucky one.
//
// Fix (phase-aliasing-fixed): every consumer warp arrives on empty[s] after its own wait
// and reads, and empty[s] counts one arrival per consumer warp (2).
//
// Launch: grid 1, block 96, in = 0,1,...,255 (TILES * 64), out = 256 ints.

#define STAGES 2
#define TILES 4
#define TILE 64
#define EMPTY_ARRIVALS 1   // BUG: one arrival (the leader warp); must be 2, one per consumer warp

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

extern "C" __global__ void ring_consumers(const int *in, int *out)
{
    __shared__ __align__(8) unsigned long long ready[STAGES];
    __shared__ __align__(8) unsigned long long empty[STAGES];
    __shared__ int tile[STAGES][TILE];

    unsigned tid = threadIdx.x;
    unsigned warp = tid / 32;
    unsigned lane = tid % 32;

    if (tid == 0) {
        for (int s = 0; s < STAGES; ++s) {
            mbar_init(smem_addr(&ready[s]), 1);
            mbar_init(smem_addr(&empty[s]), EMPTY_ARRIVALS);
        }
    }
    __syncthreads();

    if (warp == 0) {
        // ---- producer ----
        unsigned stage = 0, phase = 1;                        // producer start state
#pragma unroll 1
        for (int t = 0; t < TILES; ++t) {
            mbar_wait_parity(smem_addr(&empty[stage]), phase);   // stage released?
            tile[stage][lane] = in[t * TILE + lane] + 1000;
            tile[stage][lane + 32] = in[t * TILE + lane + 32] + 1000;
            __syncwarp();
            if (elect_one_sync())
                mbar_arrive(smem_addr(&ready[stage]));       // stage holds tile t
            if (++stage == STAGES) { stage = 0; phase ^= 1; }
        }
    } else {
        // ---- consumer group: warp 1 (leader) and warp 2 (sibling) ----
        unsigned c = tid - 32;
        if (warp == 2)
            __nanosleep(20000);                               // the sibling is late
        unsigned stage = 0, phase = 0;
#pragma unroll 1
        for (int t = 0; t < TILES; ++t) {
            mbar_wait_parity(smem_addr(&ready[stage]), phase);   // tile t is in the stage
            int v = tile[stage][c] * 2 - tile[stage][TILE - 1 - c];
            __syncwarp();
            if (warp == 1 && elect_one_sync())                // BUG: the leader warp only
                mbar_arrive(smem_addr(&empty[stage]));       // stage may be refilled
            out[t * TILE + c] = v;
            if (++stage == STAGES) { stage = 0; phase ^= 1; }
        }
    }
}
