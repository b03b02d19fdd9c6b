// syncthreads-divergent-fixed: one __syncthreads(), outside the if/else, that every thread
// of the block reaches (the fix of syncthreads-divergent).
//
// Warp 0 (threadIdx.x < 32) writes squares to shared array `a`, warp 1 writes v + 1000 to
// `b`; one __syncthreads() after the branch orders all the writes before all the reads;
// then each warp reads the other warp's array. The PTX has a single `bar.sync 0`, so
// barrier 0 is reached through the same instruction by the whole CTA, as the .aligned
// form requires (PTX ISA 9.7.13.1).
//
// Launch: grid 1, block 64, in = 0,1,...,63.

extern "C" __global__ void swap_halves(const int *in, int *out)
{
    __shared__ int a[32];   // written by warp 0
    __shared__ int b[32];   // written by warp 1

    unsigned tid = threadIdx.x;
    int v = in[tid];

    if (tid < 32)
        a[tid] = v * v;               // warp 0: squares
    else
        b[tid - 32] = v + 1000;       // warp 1: offsets
    __syncthreads();                  // one barrier, reached by every thread
    if (tid < 32)
        out[tid] = b[tid];            // warp 0 reads warp 1's results
    else
        out[tid] = a[tid - 32];       // warp 1 reads warp 0's results
}
