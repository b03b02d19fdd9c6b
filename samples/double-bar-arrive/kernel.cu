// double-bar-arrive (BUG): idle compute warps bar.arrive the epilogue barrier
// twice, so one warp arrives twice on one generation of barrier 1.
//
// The bug: the idle warps take an "early path" that arrives on barrier 1 (they have
// nothing to stage) and then fall through into the common code, which arrives on
// barrier 1 again. bar.sync 1, 128 needs four warps per generation; the load warp only
// arrives after empty completes, i.e. after both arrivals of the idle warps, so each
// idle warp arrives twice on the first generation: over-arrival. On a GPU the extra
// arrivals leak into the next generation and the kernel hangs or races.
//
// Fix (double-bar-arrive-fixed): arrive on the epilogue barrier exactly once per warp
// per generation: drop the early-path arrive.
//
// Warp-specialised epilogue. Warp 0 is the load warp: it stages a tile of 96 ints
// (in + 1) in shared memory, signals full (mbarrier, count 1), waits for empty
// (mbarrier, count 96: every compute thread is done with the tile), then meets the
// compute warps on epilogue named barrier 1 with bar.sync 1, 128 (compute + load
// threads) and copies the staged results to out.
// Warps 1..3 are compute warps. Only the first `nbusy` of them have work; the others
// are idle and stage 0. Every compute thread bar.arrive's barrier 1 once its result is
// staged, then arrives on empty.
// [vllm-project/vllm #26026]
//
// Launch: grid 1, block 128, in = 0..95, out = 96 ints, nbusy = 1.

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
__device__ __forceinline__ void epilogue_arrive()
{
    asm volatile("bar.arrive 1, 128;" ::: "memory");
}
__device__ __forceinline__ void epilogue_sync()
{
    asm volatile("bar.sync 1, 128;" ::: "memory");
}

extern "C" __global__ void epilogue_tile(const int *in, int *out, int nbusy)
{
    __shared__ __align__(8) unsigned long long full;
    __shared__ __align__(8) unsigned long long empty;
    __shared__ int tile[96];
    __shared__ int stage[96];

    unsigned tid = threadIdx.x;
    unsigned warp = tid / 32;
    unsigned lane = tid % 32;

    if (tid == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(smem_addr(&full)), "r"(1) : "memory");
        asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(smem_addr(&empty)), "r"(96) : "memory");
    }
    __syncthreads();

    if (warp == 0) {
        // ---- load warp ----
        for (int j = lane; j < 96; j += 32)
            tile[j] = in[j] + 1;
        __syncwarp();
        if (lane == 0)
            mbar_arrive(smem_addr(&full));
        mbar_wait_parity(smem_addr(&empty), 0);   // compute warps are done with the tile
        epilogue_sync();                          // bar.sync 1, 128: results are staged
        for (int j = lane; j < 96; j += 32)
            out[j] = stage[j];
    } else {
        // ---- compute warps ----
        unsigned c = tid - 32;
        bool idle = (int)(warp - 1) >= nbusy;
        int ntiles = idle ? 0 : 1;
        if (idle)
            epilogue_arrive();                    // BUG: early path arrives, then falls through
        stage[c] = 0;
#pragma unroll 1
        for (int t = 0; t < ntiles; ++t) {
            mbar_wait_parity(smem_addr(&full), 0);
            stage[c] = tile[c] * 3 + (int)c;
        }
        epilogue_arrive();                        // bar.arrive 1, 128: my result is staged
        mbar_arrive(smem_addr(&empty));           // done with the tile
    }
}
