// mbarrier-arrive-drop: threads with less work leave the barrier with mbarrier.arrive_drop,
// so the phases of the threads that stay still complete.
//
// 128 threads, each with its own number of steps `len` (1..4, from its thread index).
// In step s every thread still working adds its input to a shared per-step sum, arrives on
// the mbarrier `bar` (initialised with all 128 threads), waits for phase s by parity, and
// records the sum of the step. A thread that has done its `len` steps while others still
// have steps to go executes mbarrier.arrive_drop and exits: the drop is its arrival on
// the current phase *and* lowers the expected count of every later phase by one.
// Threads with len == STEPS just finish; at least one of them exists, so the expected
// count never drops to zero.
//
// Launch: grid 1, block 128, in = 0,1,...,511 (128 * STEPS), out = 512 ints (zeroed):
// out[tid * 4 + s] = sum of in[t * 4 + s] over the threads t still working in step s,
// for s < len(tid); 0 for the steps thread tid did not take.

#define STEPS 4

__device__ __forceinline__ unsigned smem_addr(const void *p)
{
    return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ void mbar_arrive(unsigned bar)
{
    asm volatile("mbarrier.arrive.release.cta.shared::cta.b64 _, [%0];" :: "r"(bar) : "memory");
}

__device__ __forceinline__ void mbar_arrive_drop(unsigned bar)
{
    asm volatile("mbarrier.arrive_drop.release.cta.shared::cta.b64 _, [%0];" :: "r"(bar) : "memory");
}

__device__ __forceinline__ bool mbar_test_wait_parity(unsigned bar, unsigned parity)
{
    unsigned done;
    asm volatile("{\n\t.reg .pred p;\n\t"
                 "mbarrier.test_wait.parity.acquire.cta.shared::cta.b64 p, [%1], %2;\n\t"
                 "selp.u32 %0, 1, 0, p;\n\t}"
                 : "=r"(done) : "r"(bar), "r"(parity) : "memory");
    return done != 0;
}

extern "C" __global__ void ragged_steps(const int *in, int *out)
{
    __shared__ __align__(8) unsigned long long bar;
    __shared__ int step_sum[STEPS];

    unsigned tid = threadIdx.x;
    unsigned b = smem_addr(&bar);
    int len = 1 + (tid * 7 + tid / 32) % STEPS;   // this thread's number of steps, 1..4

    if (tid < STEPS)
        step_sum[tid] = 0;
    if (tid == 0)
        asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(b), "r"(blockDim.x) : "memory");
    __syncthreads();

#pragma unroll 1
    for (int s = 0; s < len; ++s) {               // step s is phase s
        atomicAdd(&step_sum[s], in[tid * STEPS + s]);
        mbar_arrive(b);
        while (!mbar_test_wait_parity(b, s & 1))
            __nanosleep(20);
        out[tid * STEPS + s] = step_sum[s];
    }
    if (len < STEPS)
        mbar_arrive_drop(b);    // arrive on phase `len` and leave all later phases
}
