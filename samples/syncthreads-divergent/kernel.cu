// syncthreads-divergent (BUG): __syncthreads() inside an if/else whose condition differs
// between the warps of the block.
//
// Warp 0 (threadIdx.x < 32) takes the `if` branch, warp 1 the `else` branch. Each branch
// has its own __syncthreads(), so the PTX holds two different `bar.sync 0` instructions
// and the two warps arrive at barrier 0 from different ones. `bar.sync` is the .aligned
// form: every thread of the CTA must execute the *same* barrier instruction, and PTX ISA
// 9.7.13.1 says that using it in conditional code whose condition is not the same in all
// threads is undefined behaviour. On some GPUs this happens to "work" (the hardware only
// counts arrivals); on others, or after a compiler change, it hangs or loses ordering.
//
// Fix: move the __syncthreads() out of the branches, so that there is one barrier that
// every thread reaches:
//     if (tid < 32) a[tid] = ...; else b[tid - 32] = ...;
//     __syncthreads();
//     if (tid < 32) out[tid] = b[tid]; else out[tid] = a[tid - 32];
//
// Launch: grid 1, block 64, in = 0,1,...,63.

extern "C" __global__ void swap_halves(const int *in, int *out)
{
    __shared__ int a[32];   // written by warp 0
    __shared__ int b[32];   // written by warp 1

    unsigned tid = threadIdx.x;
    int v = in[tid];

    if (tid < 32) {
        a[tid] = v * v;               // warp 0: squares
        __syncthreads();              // barrier reached by warp 0 only
        out[tid] = b[tid];            // ... then reads warp 1's results
    } else {
        b[tid - 32] = v + 1000;       // warp 1: offsets
        __syncthreads();              // a different barrier instruction, warp 1 only
        out[tid] = a[tid - 32];       // ... then reads warp 0's results
    }
}
