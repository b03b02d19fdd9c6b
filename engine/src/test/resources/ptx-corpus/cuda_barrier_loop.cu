// Corpus: libcu++ cuda::barrier<thread_scope_block> in a loop. The barrier object lives
// in shared memory; arrive_and_wait lowers to mbarrier.arrive + a try_wait/test_wait
// back-off loop that reads %globaltimer and may nanosleep.
#include <cuda/barrier>
#include <cuda/std/utility>

// A __shared__ cuda::barrier has a constructor; it is never run, init() sets it up
// (this is what the libcu++ documentation does).
#pragma nv_diag_suppress static_var_with_dynamic_init

#define BLOCK 128
#define STEPS 4

extern "C" __global__ void smooth_steps(const int *in, int *out)
{
    using barrier_t = cuda::barrier<cuda::thread_scope_block>;
    __shared__ barrier_t bar;
    __shared__ int buf[2][BLOCK];

    unsigned tid = threadIdx.x;
    if (tid == 0)
        init(&bar, blockDim.x);                    // mbarrier.init
    __syncthreads();

    buf[0][tid] = in[blockIdx.x * BLOCK + tid];
    bar.arrive_and_wait();

    // Jacobi-style smoothing: read from one buffer, write the other, swap.
#pragma unroll 1
    for (int s = 0; s < STEPS; ++s) {
        const int *src = buf[s & 1];
        int *dst = buf[(s + 1) & 1];
        int left = src[(tid + BLOCK - 1) % BLOCK];
        int right = src[(tid + 1) % BLOCK];
        dst[tid] = (left + 2 * src[tid] + right) / 4;
        bar.arrive_and_wait();                     // one phase per step
    }
    out[blockIdx.x * BLOCK + tid] = buf[STEPS & 1][tid];
}
