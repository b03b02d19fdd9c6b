// barrier_loop: the interpreter benchmark's barrier-heavy kernel (benchmarks/, docs/performance.md).
//
// Every thread of a 256-thread CTA runs `iters` iterations of: read a neighbour's value from
// shared memory, mix it into its own with integer arithmetic, __syncthreads() (all reads done),
// publish its new value to shared memory, __syncthreads() (all writes visible). Every 8th
// iteration the warp also exchanges values with __shfl_xor_sync and passes a __syncwarp().
// The result is deterministic; launch.json holds the expected output.
//
// Launch: grid 4, block 256 (BLOCK below must match blockDim.x), in = 0,1,...,1023, iters = 200.

#define BLOCK 256
#define FULL_MASK 0xffffffffu

extern "C" __global__ void barrier_loop(const unsigned *in, unsigned *out, int iters)
{
    __shared__ unsigned buf[BLOCK];

    unsigned tid = threadIdx.x;
    unsigned gid = blockIdx.x * BLOCK + tid;
    unsigned acc = in[gid];
    buf[tid] = acc;
    __syncthreads();

#pragma unroll 1
    for (int i = 0; i < iters; i++) {
        unsigned nb = buf[(tid + i + 1) % BLOCK];   // a neighbour's value from the last round
        acc = acc * 3u + (nb ^ (unsigned) i);
        acc += (acc >> 5) & 0xffu;
        __syncthreads();                            // every read of buf done before the writes
        buf[tid] = acc;
        if ((i & 7) == 7) {
            acc += __shfl_xor_sync(FULL_MASK, acc, 1 << ((i >> 3) & 3));
            __syncwarp();
        }
        __syncthreads();                            // this round's writes visible to the next
    }
    out[gid] = acc;
}
