// zero-tile-persistent (BUG): the arrive on the ordering mbarrier sits inside the
// tile loop, so a CTA that gets zero tiles never arrives, and its epilogue warp, which
// waits unconditionally, waits forever.
//
// With ntiles = 1 and 2 CTAs, CTA 1's loop runs zero times: acc_ready's phase 0 never
// completes and the kernel deadlocks.
//
// Fix (zero-tile-persistent-fixed): arrive once after the loop, whatever the number
// of tiles was.
//
// A persistent kernel: CTA b takes tiles b, b + gridDim.x, ... of `ntiles` tiles of
// 32 ints. Warp 0 (the math warp) adds each of its tiles (in + 1) into a per-lane
// accumulator in shared memory and then arrives (all 32 lanes) on the ordering
// mbarrier `acc_ready` (count 32) to say "the accumulator is final". Warp 1 (the
// epilogue warp) waits on acc_ready, parity 0, and stores out[b*32 + lane] =
// acc[lane] * 2 + b.
// [NVIDIA/cutlass #2172]
//
// Launch: grid 2, block 64, in = 0..31, out = 64 ints, ntiles = 1 (so CTA 1 gets none).

__device__ __forceinline__ unsigned smem_addr(const void *p)
{
    return static_cast<unsigned>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ void mbar_arrive(unsigned bar)
{
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" :: "r"(bar) : "memory");
}
__device__ __forceinline__ void mbar_wait_parity(unsigned bar, unsigned parity)
{
    unsigned done;
    do {
        asm volatile("{\n\t.reg .pred p;\n\t"
                     "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\t"
                     "selp.u32 %0, 1, 0, p;\n\t}"
                     : "=r"(done) : "r"(bar), "r"(parity) : "memory");
    } while (!done);
}

extern "C" __global__ void persistent_sum(const int *in, int *out, int ntiles)
{
    __shared__ __align__(8) unsigned long long acc_ready;
    __shared__ int acc[32];

    unsigned tid = threadIdx.x;
    unsigned warp = tid / 32;
    unsigned lane = tid % 32;
    int b = blockIdx.x;

    if (tid == 0)
        asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(smem_addr(&acc_ready)), "r"(32) : "memory");
    __syncthreads();

    if (warp == 0) {
        // ---- math warp ----
        acc[lane] = 0;
#pragma unroll 1
        for (int t = b; t < ntiles; t += gridDim.x) {
            acc[lane] += in[t * 32 + lane] + 1;
            if (t + (int)gridDim.x >= ntiles)     // last tile of this CTA
                mbar_arrive(smem_addr(&acc_ready));   // BUG: only reached if the CTA has a tile
        }

    } else {
        // ---- epilogue warp ----
        mbar_wait_parity(smem_addr(&acc_ready), 0);   // unconditional wait
        out[b * 32 + lane] = acc[lane] * 2 + b;
    }
}
