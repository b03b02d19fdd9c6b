// mbarrier-parity-alias (held-out BUG, explore test): a two-stage pipeline with a `full`
// mbarrier only, no `empty` one. Warp 0 produces stage 0 and stage 1 into two slots (some work
// before each) and arrives on `full` (count 1) after each; warp 1 consumes them, waiting on
// `full` with parity 0 and then 1. Parity names only the low bit of the phase, and nothing
// stops the producer from running ahead: when it arrives for stage 1 before the consumer's wait
// has seen phase 0 complete, phase 0 is never observed (the ISA requires each phase to be
// observed complete before an arrive-on in the next, PTX ISA 9.7.13.15.4), and the consumer's
// "wait for parity 0" would then wait on phase 2. On the interleavings where the consumer waits
// in time (the default one among them) the kernel is correct.
// Fix: an `empty` mbarrier the producer waits on before the next stage (back-pressure).
//
// Launch: grid 1, block 64, in = 0..63, out = 32 ints.

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

extern "C" __global__ void parity_alias(const int *in, int *out)
{
    __shared__ __align__(8) unsigned long long full;
    __shared__ int slot[2][32];

    unsigned t = threadIdx.x;
    if (t == 0) mbar_init(smem_addr(&full), 1);
    __syncthreads();

    if (t < 32) {
#pragma unroll 1
        for (int s = 0; s < 2; ++s) {
            int v = in[t + 32 * s];
#pragma unroll 1
            for (int i = 0; i < 6; ++i)
                v = v * 5 + i;                         // the producer's work for this stage
            slot[s][t] = v;
            __syncwarp();
            if (t == 0) mbar_arrive(smem_addr(&full)); // BUG: no wait on an `empty` barrier first
        }
    } else {
        unsigned c = t - 32;
        int acc = 0;
#pragma unroll 1
        for (int s = 0; s < 2; ++s) {
            mbar_wait_parity(smem_addr(&full), s & 1);
            acc += slot[s][c];
        }
        out[c] = acc;
    }
}
