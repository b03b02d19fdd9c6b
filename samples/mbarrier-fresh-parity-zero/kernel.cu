// mbarrier-fresh-parity-zero (BUG): the producer waits for parity 0 on a fresh "empty"
// barrier and hangs before the first fill.
//
// Warp 0 produces, warp 1 consumes, through a ring of two 32-int shared-memory slots.
// Slot s has two mbarriers, both counted in threads (32: every lane arrives):
//   full[s]   producer lanes arrive after writing the slot; the consumer waits on it
//   empty[s]  consumer lanes arrive after reading the slot;  the producer waits on it
// Fill k uses slot k % 2; waits compute the phase parity from k, as hand-written
// pipelines do: use number u = k / 2 of a slot waits for phase u of full[s].
//
// The bug: "every mbarrier starts in phase 0, so the first wait is on parity 0", for
// both sides. That is right for the consumer (phase 0 of full[s] completes when the
// first fill arrives) but wrong for the producer: phase 0 of empty[s] completes only
// when the consumer has read the first fill of slot s, which the producer has not
// written yet. A parity wait succeeds for the current phase only once it completes
// (PTX ISA 9.7.13.15.16), so the producer waits for the consumer and the consumer for
// the producer: deadlock before a single store. [Dao-AILab/flash-attention #1317]
//
// Fix (mbarrier-fresh-parity-zero-fixed): the producer waits on the opposite parity,
// ((k / STAGES) & 1) ^ 1. On a fresh barrier, parity 1 names the phase before phase 0,
// which counts as complete, so the first wait on each slot passes at once.
//
// Launch: grid 1, block 64, in = 0,1,...,191 (ITERS * 32), out = 192 ints.

#define STAGES 2
#define ITERS 6

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

extern "C" __global__ void ring2(const int *in, int *out)
{
    __shared__ __align__(8) unsigned long long full[STAGES];
    __shared__ __align__(8) unsigned long long empty[STAGES];
    __shared__ int ring[STAGES][32];

    unsigned warp = threadIdx.x / 32;
    unsigned lane = threadIdx.x % 32;

    if (threadIdx.x == 0) {
        for (int s = 0; s < STAGES; ++s) {
            asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(smem_addr(&full[s])), "r"(32) : "memory");
            asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(smem_addr(&empty[s])), "r"(32) : "memory");
        }
    }
    __syncthreads();

    if (warp == 0) {
        // ---- producer ----
#pragma unroll 1
        for (int k = 0; k < ITERS; ++k) {
            int s = k % STAGES;
            unsigned parity = (k / STAGES) & 1;                 // BUG: parity 0 first
            mbar_wait_parity(smem_addr(&empty[s]), parity);     // slot s free?
            ring[s][lane] = in[k * 32 + lane] + 1000 * k;
            mbar_arrive(smem_addr(&full[s]));                   // slot s filled
        }
    } else if (warp == 1) {
        // ---- consumer ----
#pragma unroll 1
        for (int k = 0; k < ITERS; ++k) {
            int s = k % STAGES;
            unsigned parity = (k / STAGES) & 1;                 // phase k/2 of full[s]
            mbar_wait_parity(smem_addr(&full[s]), parity);      // slot s filled?
            int v = ring[s][(lane + k) % 32];
            mbar_arrive(smem_addr(&empty[s]));                  // slot s free again
            out[k * 32 + lane] = v;
        }
    }
}
