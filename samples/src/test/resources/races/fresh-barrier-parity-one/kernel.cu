// fresh-barrier-parity-one (a real bug report, the other way round): a race, not a hang.
//
// The CUTLASS producer start state (wait with parity 1 on a fresh barrier, which passes at
// once) copied by mistake into the consumer. Warp 0 writes a tile of 64 ints into shared
// memory with ordinary stores, then one lane arrives on `full` (count 1). Warps 1 and 2 wait
// on `full` with parity 1: the barrier is fresh (phase 0), so "the phase before phase 0"
// counts as complete and the wait returns true at once, before the producer wrote anything.
// Their reads are not ordered after the producer's stores: `race`. (Under a schedule where
// the producer's arrive comes before the consumers' first wait, parity 1 is then the current
// phase and the wait hangs instead: a deadlock. Both are the same bug.)
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

__device__ __forceinline__ void mbar_arrive(unsigned bar)
{
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" :: "r"(bar) : "memory");
}

__device__ __forceinline__ void mbar_wait_parity(unsigned bar, unsigned parity)
{
    asm volatile("{\n\t"
                 ".reg .pred P1;\n"
                 "LAB_WAIT:\n\t"
                 "mbarrier.try_wait.parity.shared::cta.b64 P1, [%0], %1;\n\t"
                 "@P1 bra DONE;\n\t"
                 "bra LAB_WAIT;\n"
                 "DONE:\n\t"
                 "}"
                 :: "r"(bar), "r"(parity) : "memory");
}

extern "C" __global__ void fresh_parity_one(const int *in, int *out)
{
    __shared__ __align__(8) unsigned long long full;
    __shared__ int tile[TILE];

    unsigned tid = threadIdx.x;
    if (tid == 0) mbar_init(smem_addr(&full), 1);
    __syncthreads();

    if (tid < 32) {
        tile[tid] = in[tid] * 2;
        tile[tid + 32] = in[tid + 32] * 2;
        __syncwarp();
        if (tid == 0) mbar_arrive(smem_addr(&full));
    } else {
        unsigned c = tid - 32;
        mbar_wait_parity(smem_addr(&full), 1);   // BUG: the producer start state; should be 0
        out[c] = tile[c] + tile[TILE - 1 - c];
    }
}
