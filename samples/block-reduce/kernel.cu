// block-reduce: each block sums its slice of `in` in shared memory and writes one
// partial sum to out[blockIdx.x].
//
// The classic tree reduction: every step halves the number of active threads, and a
// __syncthreads() (PTX `bar.sync 0`) between steps makes the partial sums written in one
// step visible to the threads that read them in the next.
//
// Launch: grid 4, block 128 (BLOCK below must match blockDim.x).

#define BLOCK 128

extern "C" __global__ void block_reduce(const int *__restrict__ in, int *out, int n)
{
    __shared__ int partial[BLOCK];

    unsigned tid = threadIdx.x;
    unsigned i = blockIdx.x * blockDim.x + tid;

    // 1. Every thread stages one element (0 past the end of the input).
    partial[tid] = (i < n) ? in[i] : 0;
    __syncthreads();                       // all 128 stores done before anyone reads

    // 2. Tree reduction: 64, 32, 16, ... threads add the upper half onto the lower half.
    for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tid < stride)
            partial[tid] += partial[tid + stride];
        __syncthreads();                   // this step's sums are read by the next step
    }

    // 3. Thread 0 publishes the block's total.
    if (tid == 0)
        out[blockIdx.x] = partial[0];
}
