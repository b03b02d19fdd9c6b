// mbarrier-init-count-too-high (BUG): an mbarrier that expects one arrival more than
// there are threads to make it.
//
// 128 threads run ITERS rounds of a neighbour sum on a double-buffered shared array:
// new[t] = old[t] + old[(t + 1) % 128]. One mbarrier `bar` replaces __syncthreads():
// every thread arrives once per round (mbarrier.arrive, keeping the state token) and
// waits with mbarrier.try_wait on that token. Staging the input is phase 0, round r is
// phase r + 1.
//
// The bug: thread 0 initialises the barrier with blockDim.x + 1, "every thread plus one
// for the thread that sets it up". But thread 0 arrives once per phase like everybody
// else, so each phase gets 128 arrivals and expects 129. Phase 0 never completes: its
// pending arrival count stops at 1 (PTX ISA 9.7.13.15.6) and all 128 threads spin in
// try_wait forever: a deadlock.
//
// Fix (mbarrier-init-count-too-high-fixed): the expected count is the number of arrive-on
// operations per phase, here blockDim.x.
//
// Launch: grid 1, block 128, in = 0,1,...,127, out = 128 ints.

#define N 128
#define ITERS 3

__device__ __forceinline__ unsigned smem_addr(const void *p)
{
    return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ void mbar_sync(unsigned bar)
{
    unsigned long long state;
    asm volatile("mbarrier.arrive.shared::cta.b64 %0, [%1];" : "=l"(state) : "r"(bar) : "memory");
    unsigned done;
    do {
        asm volatile("{\n\t.reg .pred p;\n\t"
                     "mbarrier.try_wait.shared::cta.b64 p, [%1], %2;\n\t"
                     "selp.u32 %0, 1, 0, p;\n\t}"
                     : "=r"(done) : "r"(bar), "l"(state) : "memory");
    } while (!done);
}

extern "C" __global__ void neighbour_sum(const int *in, int *out)
{
    __shared__ __align__(8) unsigned long long bar;
    __shared__ int buf[2][N];

    unsigned tid = threadIdx.x;
    unsigned b = smem_addr(&bar);

    if (tid == 0) {
        unsigned count = blockDim.x + 1;            // BUG: one more than will ever arrive
        asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(b), "r"(count) : "memory");
    }
    __syncthreads();

    buf[0][tid] = in[tid];
    mbar_sync(b);                                   // phase 0: input staged

#pragma unroll 1
    for (int r = 0; r < ITERS; ++r) {               // round r: phase r + 1
        const int *src = buf[r & 1];
        buf[(r + 1) & 1][tid] = src[tid] + src[(tid + 1) % N];
        mbar_sync(b);
    }
    out[tid] = buf[ITERS & 1][tid];
}
