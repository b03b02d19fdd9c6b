// relaxed-arrive-data: an mbarrier handoff whose arrive is .relaxed. A race, not a hang.
//
// Warp 0 writes a tile of 64 ints with ordinary stores, then every producer lane arrives on
// `full` (count 32) with mbarrier.arrive.relaxed.cta: the phase completes and the consumers'
// acquire waits (try_wait.parity, .acquire by default) return true, but a relaxed arrive
// releases nothing, so the stores are not ordered before the consumers' reads: `race`
// (semantics.md section 8). The fix is the default .release arrive.
//
// Launch: grid 1, block 96, in = 0,1,...,63, out = 64 ints.

#define TILE 64

__device__ __forceinline__ unsigned smem_addr(const void *p)
{
    return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ void mbar_init(unsigned bar, unsigned count)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(bar), "r"(count) : "memory");
}

__device__ __forceinline__ void mbar_arrive_relaxed(unsigned bar)
{
    asm volatile("mbarrier.arrive.relaxed.cta.shared::cta.b64 _, [%0];" :: "r"(bar) : "memory");   // BUG
}

__device__ __forceinline__ void mbar_wait_parity_acquire(unsigned bar, unsigned parity)
{
    asm volatile("{\n\t"
                 ".reg .pred P1;\n"
                 "LAB_WAIT:\n\t"
                 "mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 P1, [%0], %1;\n\t"
                 "@P1 bra DONE;\n\t"
                 "bra LAB_WAIT;\n"
                 "DONE:\n\t"
                 "}"
                 :: "r"(bar), "r"(parity) : "memory");
}

extern "C" __global__ void relaxed_arrive(const int *in, int *out)
{
    __shared__ __align__(8) unsigned long long full;
    __shared__ int tile[TILE];

    unsigned tid = threadIdx.x;
    if (tid == 0) mbar_init(smem_addr(&full), 32);
    __syncthreads();

    if (tid < 32) {
        tile[tid] = in[tid] + 1000;
        tile[tid + 32] = in[tid + 32] + 1000;
        mbar_arrive_relaxed(smem_addr(&full));
    } else {
        unsigned c = tid - 32;
        mbar_wait_parity_acquire(smem_addr(&full), 0);
        out[c] = tile[c] - tile[TILE - 1 - c];
    }
}
