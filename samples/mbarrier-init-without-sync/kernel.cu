// mbarrier-init-without-sync (BUG): thread 0 initialises an mbarrier and nothing makes the
// other threads wait for that before they arrive on it (NVIDIA/Fuser #1769).
//
// Block 64. The mbarrier `bar` (count 64) is a split arrive/wait barrier for the whole
// block: every thread stores stage[t] = in[t] * 2, arrives (keeping the state token),
// waits with that token, then reads another thread's value: out[t] = stage[63 - t] + t.
//
// The bug: thread 0 runs mbarrier.init, and the other 63 threads go straight on to their
// arrive. Nothing orders the init before them: no __syncthreads(), no other barrier. If an
// arrive comes first, it operates on an object that is not an initialised mbarrier yet,
// which is undefined (PTX ISA 9.7.13.15.3: init before any other mbarrier operation);
// BarrierScope reports mbarrier-uninitialized.
//
// On a GPU thread 0 usually wins the race (its init is the first thing it does), which is
// why this survives testing. Here thread 0 starts with __nanosleep(2000): late, as it will
// sometimes be on a GPU, so every run shows what happens then. Without the sleep the
// outcome depends on the schedule; the race detector reports the unordered
// init and arrive in every run.
//
// Fix (mbarrier-init-without-sync-fixed): __syncthreads() between the init and the first
// use (CUTLASS: fence_barrier_init() + __syncthreads(), or cluster_sync() for a cluster).
//
// Launch: grid 1, block 64, in = 0,1,...,63, out = 64 ints.

#define THREADS 64

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
__device__ __forceinline__ void mbar_wait(unsigned bar, unsigned long long state)
{
    asm volatile("{\n\t"
                 ".reg .pred P1;\n"
                 "LAB_WAIT:\n\t"
                 "mbarrier.try_wait.shared::cta.b64 P1, [%0], %1;\n\t"
                 "@P1 bra DONE;\n\t"
                 "bra LAB_WAIT;\n"
                 "DONE:\n\t"
                 "}"
                 :: "r"(bar), "l"(state) : "memory");
}

extern "C" __global__ void exchange(const int *in, int *out)
{
    __shared__ __align__(8) unsigned long long bar;
    __shared__ int stage[THREADS];

    unsigned t = threadIdx.x;

    if (t == 0) {
        __nanosleep(2000);                                  // thread 0 is late
        asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(smem_addr(&bar)), "r"(THREADS) : "memory");
    }
    // BUG: no __syncthreads() here: the other threads may arrive before the init

    stage[t] = in[t] * 2;
    unsigned long long state = mbar_arrive(smem_addr(&bar));   // my value is staged
    mbar_wait(smem_addr(&bar), state);                          // everybody's is
    out[t] = stage[THREADS - 1 - t] + (int)t;
}
