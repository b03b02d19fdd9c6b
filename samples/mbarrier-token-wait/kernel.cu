// mbarrier-token-wait: one mbarrier, every thread arrives once per phase and waits with
// the state token its own arrive returned.
//
// Warp 0 is the producer: each iteration it writes a 32-int tile into shared memory
// (double-buffered: tile[it & 1]). Warps 1..3 are consumers: they read the tile of the
// iteration and write results to `out`. One mbarrier `bar`, initialised with the block
// size (128), is completed once per iteration, so iteration `it` is phase `it`:
//
//   producer  st.shared tile ; mbarrier.arrive -> token ; prefetch next input ;
//             mbarrier.try_wait  token  (loop)
//   consumers mbarrier.arrive -> token ; store the previous result to global ;
//             mbarrier.test_wait token  (loop, nanosleep between polls) ; ld.shared tile
//
// Between its arrive and its wait each thread does work that needs no synchronisation:
// that is the point of a split barrier (PTX ISA 9.7.13.15). Double buffering makes one
// phase per tile enough: the producer overwrites tile[it & 1] only in iteration it + 2,
// after phase it + 1, which needs every consumer's arrive made after it read that buffer.
// At the end a __syncthreads() lets thread 0 invalidate the barrier (9.7.13.15.10).
//
// Launch: grid 1, block 128, in = 0,1,...,127 (ITERS * 32), out = ITERS * 96 ints.

#define ITERS 4
#define TILE 32
#define CONSUMERS 96

__device__ __forceinline__ unsigned smem_addr(const void *p)
{
    return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ unsigned long long mbar_arrive(unsigned bar)
{
    unsigned long long state;
    asm volatile("mbarrier.arrive.shared::cta.b64 %0, [%1];" : "=l"(state) : "r"(bar) : "memory");
    return state;
}

// Non-blocking: true once the phase the token was taken in has completed.
__device__ __forceinline__ bool mbar_test_wait(unsigned bar, unsigned long long state)
{
    unsigned done;
    asm volatile("{\n\t.reg .pred p;\n\t"
                 "mbarrier.test_wait.shared::cta.b64 p, [%1], %2;\n\t"
                 "selp.u32 %0, 1, 0, p;\n\t}"
                 : "=r"(done) : "r"(bar), "l"(state) : "memory");
    return done != 0;
}

// Potentially blocking: the thread may be suspended until the phase completes or a
// system-dependent time limit passes; false means "not yet", so callers loop.
__device__ __forceinline__ bool mbar_try_wait(unsigned bar, unsigned long long state)
{
    unsigned done;
    asm volatile("{\n\t.reg .pred p;\n\t"
                 "mbarrier.try_wait.shared::cta.b64 p, [%1], %2;\n\t"
                 "selp.u32 %0, 1, 0, p;\n\t}"
                 : "=r"(done) : "r"(bar), "l"(state) : "memory");
    return done != 0;
}

extern "C" __global__ void token_tiles(const int *in, int *out)
{
    __shared__ __align__(8) unsigned long long bar;   // the mbarrier object (8 bytes)
    __shared__ int tile[2][TILE];

    unsigned tid = threadIdx.x;
    unsigned warp = tid / 32;
    unsigned lane = tid % 32;
    unsigned b = smem_addr(&bar);

    if (tid == 0)   // count = every thread of the block arrives once per phase
        asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(b), "r"(blockDim.x) : "memory");
    __syncthreads();    // publish the init before anyone arrives

    if (warp == 0) {
        // ---- producer ----
        int next = in[lane];
#pragma unroll 1
        for (int it = 0; it < ITERS; ++it) {
            tile[it & 1][lane] = next * 3 + 1;            // produce tile `it`
            unsigned long long token = mbar_arrive(b);    // phase `it`: tile written
            if (it + 1 < ITERS)
                next = in[(it + 1) * TILE + lane];        // prefetch while the phase completes
            while (!mbar_try_wait(b, token)) {
            }
        }
    } else {
        // ---- consumers ----
        unsigned c = tid - 32;
        int result = 0;
#pragma unroll 1
        for (int it = 0; it < ITERS; ++it) {
            unsigned long long token = mbar_arrive(b);    // phase `it`: done with tile it - 1
            if (it > 0)
                out[(it - 1) * CONSUMERS + c] = result;   // work that needs no barrier
            while (!mbar_test_wait(b, token))
                __nanosleep(20);
            result = tile[it & 1][(c * 5 + it) % TILE] * (int)warp + it;
        }
        out[(ITERS - 1) * CONSUMERS + c] = result;
    }

    __syncthreads();    // nobody touches the barrier any more
    if (tid == 0)
        asm volatile("mbarrier.inval.shared::cta.b64 [%0];" :: "r"(b) : "memory");
}
