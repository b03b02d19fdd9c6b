// mbarrier-exited-waiter (BUG): consumer warps that read "no more work" exit without
// releasing the slot, and the producer waits for that release forever.
//
// A persistent warp-specialised kernel. Warp 0 produces `ntiles` tiles of 96 ints (the
// count is a kernel argument) into a ring of two shared-memory slots, then one more
// fill whose header says "no more work" (-1). Warps 1..3 (96 consumer threads) take
// fills until they see that marker, summing what they read into per-thread partials.
//   full[s]  count 1   the producer lane chosen by elect.sync arrives: slot s filled
//   empty[s] count 96  every consumer thread arrives: done with slot s
// After the marker the producer runs a "producer tail" like CUTLASS's: it waits until
// the consumers have released every slot, then adds up their partials (which the
// consumers store just before their last release) into *total.
//
// The bug: on the marker, the consumers store their partial and return at once, without
// arriving on empty[s] for the slot that held the marker. Exited threads never arrive on
// an mbarrier, and nothing else will: the producer tail's wait for that slot's phase
// waits for 96 arrivals from threads that have all exited: a deadlock.
// [marin-community/marin #8870]
//
// Fix (mbarrier-exited-waiter-fixed): a consumer releases the slot it took even when it
// only said "no more work": mbarrier.arrive on empty[s] before returning. That arrive
// also publishes the partials (it has .release semantics) to the producer's wait.
//
// Launch: grid 1, block 128, in = 0..479 (ntiles * 96), out = 480 ints, total = 1 int,
// ntiles = 5.

#define STAGES 2
#define TILE 96

__device__ __forceinline__ unsigned smem_addr(const void *p)
{
    return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ void mbar_arrive(unsigned bar)
{
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" :: "r"(bar) : "memory");
}

__device__ __forceinline__ void mbar_wait_parity(unsigned bar, unsigned parity)
{
    unsigned done;
    do {
        asm volatile("{\n\t.reg .pred p;\n\t"
                     "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\t"
                     "selp.u32 %0, 1, 0, p;\n\t}"
                     : "=r"(done) : "r"(bar), "r"(parity) : "memory");
    } while (!done);
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

extern "C" __global__ void persistent_tiles(const int *in, int *out, int *total, int ntiles)
{
    __shared__ __align__(8) unsigned long long full[STAGES];
    __shared__ __align__(8) unsigned long long empty[STAGES];
    __shared__ int tile[STAGES][TILE];
    __shared__ int header[STAGES];          // tile index, or -1: no more work
    __shared__ int partial[TILE];           // one per consumer thread

    unsigned tid = threadIdx.x;
    unsigned warp = tid / 32;
    unsigned lane = tid % 32;

    if (tid == 0) {
        for (int s = 0; s < STAGES; ++s) {
            asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(smem_addr(&full[s])), "r"(1) : "memory");
            asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(smem_addr(&empty[s])), "r"(TILE) : "memory");
        }
    }
    __syncthreads();

    if (warp == 0) {
        // ---- producer ----
        unsigned k = 0;                                  // fills so far
#pragma unroll 1
        for (int t = 0; t <= ntiles; ++t, ++k) {         // ntiles tiles, then the marker
            unsigned s = k % STAGES;
            mbar_wait_parity(smem_addr(&empty[s]), ((k / STAGES) & 1) ^ 1);
            if (t < ntiles)
                for (int j = lane; j < TILE; j += 32)
                    tile[s][j] = in[t * TILE + j] + 1;
            if (lane == 0)
                header[s] = t < ntiles ? t : -1;
            __syncwarp();
            if (elect_one_sync())
                mbar_arrive(smem_addr(&full[s]));
        }
        // producer tail: wait until the consumers have released every slot
#pragma unroll 1
        for (int i = 0; i < STAGES; ++i, ++k)
            mbar_wait_parity(smem_addr(&empty[k % STAGES]), ((k / STAGES) & 1) ^ 1);
        if (lane == 0) {
            int sum = 0;
#pragma unroll 1
            for (int c = 0; c < TILE; ++c)
                sum += partial[c];
            *total = sum;
        }
    } else {
        // ---- consumers ----
        unsigned c = tid - 32;
        int acc = 0;
#pragma unroll 1
        for (unsigned k = 0;; ++k) {
            unsigned s = k % STAGES;
            mbar_wait_parity(smem_addr(&full[s]), (k / STAGES) & 1);
            int t = header[s];
            if (t < 0) {                                 // no more work
                partial[c] = acc;
                return;                                  // BUG: slot s never released
            }
            int v = tile[s][c];
            mbar_arrive(smem_addr(&empty[s]));           // done with slot s
            acc += v;
            out[t * TILE + c] = v * 2 + t;
        }
    }
}
