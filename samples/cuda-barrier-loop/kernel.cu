// cuda-barrier-loop: libcu++ cuda::barrier<thread_scope_block> driving an inclusive scan.
//
// 128 threads compute the inclusive prefix sum of 128 ints in shared memory with the
// Hillis-Steele scan: in step d (d = 1, 2, 4, ..., 64) each element adds the one d places
// to its left. Two buffers alternate (read one, write the other), so one barrier phase per
// step is enough. The barrier is a cuda::barrier in shared memory, initialised by thread 0
// for all 128 threads; arrive_and_wait() completes one phase per step.
//
// libcu++ lowers the barrier to the mbarrier instructions: init() to mbarrier.init,
// arrive_and_wait() to mbarrier.arrive (returning a state token) followed by a
// mbarrier.try_wait loop that reads %globaltimer and backs off with nanosleep.
//
// Launch: grid 1, block 128, in = 0,1,...,127, out = 128 ints.
#include <cuda/barrier>

// A __shared__ cuda::barrier has a constructor that is never run; init() sets it up
// (this is what the libcu++ documentation does).
#pragma nv_diag_suppress static_var_with_dynamic_init

#define N 128

extern "C" __global__ void block_scan(const int *in, int *out)
{
    using barrier_t = cuda::barrier<cuda::thread_scope_block>;
    __shared__ barrier_t bar;
    __shared__ int buf[2][N];

    unsigned tid = threadIdx.x;
    if (tid == 0)
        init(&bar, blockDim.x);                 // mbarrier.init, expected count 128
    __syncthreads();                            // publish the init

    buf[0][tid] = in[tid] % 10 + 1;             // values 1..10
    bar.arrive_and_wait();                      // phase 0: buf[0] complete

    int src = 0;
#pragma unroll 1
    for (unsigned d = 1; d < N; d *= 2) {       // 7 steps: phases 1..7
        int v = buf[src][tid];
        if (tid >= d)
            v += buf[src][tid - d];
        buf[src ^ 1][tid] = v;
        src ^= 1;
        bar.arrive_and_wait();
    }
    out[tid] = buf[src][tid];
}
