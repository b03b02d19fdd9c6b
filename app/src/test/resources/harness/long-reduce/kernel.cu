// long-reduce: block-reduce done `rounds` times, for the window harnesses' Pause measurement
// (docs/performance.md, "Window responsiveness"): the samples' block-reduce on 256 CTAs ends in
// about 0.1 s, before a Pause can land; 40 rounds on the same 32,768 threads run for seconds.
//
// Each round stages its slice plus the round number, tree-reduces it in shared memory with a
// __syncthreads() (PTX `bar.sync 0`) between steps, and thread 0 adds the total to its sum; a last
// __syncthreads() keeps the next round's stores from overwriting partial[0] before thread 0 read it.
//
// Launch: grid 256, block 128 (BLOCK below must match blockDim.x).

#define BLOCK 128

extern "C" __global__ void long_reduce(const int *__restrict__ in, int *out, int n, int rounds)
{
    __shared__ int partial[BLOCK];

    unsigned tid = threadIdx.x;
    unsigned i = blockIdx.x * blockDim.x + tid;
    int sum = 0;

    for (int r = 0; r < rounds; r++) {
        partial[tid] = ((i < n) ? in[i] : 0) + r;
        __syncthreads();
        for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
            if (tid < stride)
                partial[tid] += partial[tid + stride];
            __syncthreads();
        }
        if (tid == 0)
            sum += partial[0];
        __syncthreads();
    }

    if (tid == 0)
        out[blockIdx.x] = sum;
}
