// try-wait-once (held-out BUG, explore test): warp 1 fills a shared tile and arrives (release)
// on an mbarrier; warp 0 waits for the phase with a single `mbarrier.try_wait`, as if it blocked
// until the phase completed, and then reads the tile. try_wait is a potentially blocking test:
// it may return false when its time limit runs out before the phase completes (PTX ISA
// 9.7.13.15.16), and a false result orders nothing. The kernel ignores the result, so when the
// wait gives up early warp 0 reads the tile unordered with warp 1's stores: a race. When the
// wait suspends until the phase completes (the default schedule) the run is clean.
// Fix: loop on try_wait until it returns true (`while (!try_wait(...)) {}`).
//
// Launch: grid 1, block 64, in = 0..31, out = 32 ints.

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
    asm volatile("mbarrier.arrive.release.cta.shared::cta.b64 _, [%0];" :: "r"(bar) : "memory");
}

// BUG: one try_wait, its result dropped: a false return (time limit) is taken as completion.
__device__ __forceinline__ void mbar_wait_once(unsigned bar, unsigned parity)
{
    asm volatile("{\n\t"
                 ".reg .pred P1;\n\t"
                 "mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 P1, [%0], %1;\n\t"
                 "}"
                 :: "r"(bar), "r"(parity) : "memory");
}

extern "C" __global__ void try_wait_once(const int *in, int *out)
{
    __shared__ __align__(8) unsigned long long full;
    __shared__ int tile[32];

    unsigned t = threadIdx.x;
    if (t == 0)
        mbar_init(smem_addr(&full), 32);
    __syncthreads();

    if (t >= 32) {
        unsigned c = t - 32;
        int v = in[c];
#pragma unroll 1
        for (int i = 0; i < 4; ++i)
            v = v * 5 + i;                               // the producer's work first
        tile[c] = v;
        mbar_arrive(smem_addr(&full));                   // release: publishes the tile
    } else {
        mbar_wait_once(smem_addr(&full), 0);             // BUG: may return false, not checked
        out[t] = tile[31 - t];
    }
}
