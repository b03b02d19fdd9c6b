// ring-phase-per-item (held-out BUG, explore test): a two-slot mbarrier ring. Warp 1 produces
// four items into slot i % 2 (waiting on `empty[s]` before it reuses a slot, arriving on
// `full[s]` after each fill); warp 0 consumes them (waiting on `full[s]`, arriving on
// `empty[s]` when it is done with the slot). The consumer keeps one phase bit for the whole ring
// and flips it after every item; with two slots it must flip once per lap (when the slot index
// wraps), since each slot's barrier completes one phase per lap.
// What follows depends on the interleaving at item 1 (slot 1, parity 1 where 0 was meant):
// - the producer has already filled slot 1 (full[1] completed phase 0, the default schedule):
//   "wait for parity 1" waits for phase 1, which needs the producer's fill of item 3, which
//   needs the consumer to free slot 1 first: a deadlock;
// - it has not: the current phase's parity is 0, so the wait returns at once (the phase before
//   counts as complete) and the consumer reads slot 1 unordered with the producer's write: a
//   race.
// Fix: `if (s == 1) phase ^= 1;` (flip per lap), i.e. parity (i / 2) & 1.
//
// Launch: grid 1, block 64, in = 0..127, out = 32 ints.

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

__device__ __forceinline__ void mbar_wait_parity(unsigned bar, unsigned parity)
{
    asm volatile("{\n\t"
                 ".reg .pred P1;\n"
                 "RING_WAIT:\n\t"
                 "mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 P1, [%0], %1;\n\t"
                 "@P1 bra RING_DONE;\n\t"
                 "bra RING_WAIT;\n"
                 "RING_DONE:\n\t"
                 "}"
                 :: "r"(bar), "r"(parity) : "memory");
}

extern "C" __global__ void ring_phase(const int *in, int *out)
{
    __shared__ __align__(8) unsigned long long full[2];
    __shared__ __align__(8) unsigned long long empty[2];
    __shared__ int slot[2][32];

    unsigned t = threadIdx.x;
    if (t == 0) {
        for (int s = 0; s < 2; ++s) {
            mbar_init(smem_addr(&full[s]), 1);
            mbar_init(smem_addr(&empty[s]), 1);
        }
    }
    __syncthreads();

    if (t >= 32) {                                     // producer warp
        unsigned l = t - 32;
#pragma unroll 1
        for (int i = 0; i < 4; ++i) {
            int s = i & 1;
            if (i >= 2) mbar_wait_parity(smem_addr(&empty[s]), ((i >> 1) - 1) & 1);
            slot[s][l] = in[32 * i + l] * 3 + 1;
            __syncwarp();
            if (l == 0) mbar_arrive(smem_addr(&full[s]));
        }
    } else {                                           // consumer warp
        int acc = 0;
        unsigned phase = 0;
#pragma unroll 1
        for (int i = 0; i < 4; ++i) {
            int s = i & 1;
            mbar_wait_parity(smem_addr(&full[s]), phase);
            acc += slot[s][t];
            __syncwarp();
            if (t == 0) mbar_arrive(smem_addr(&empty[s]));
            phase ^= 1;                                // BUG: once per lap (when s wraps), not per item
        }
        out[t] = acc;
    }
}
