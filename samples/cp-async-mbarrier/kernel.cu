// cp-async-mbarrier: Ampere-style cp.async copies whose completion is tracked by an
// mbarrier instead of commit_group / wait_group (libcu++'s cuda::memcpy_async into a
// cuda::barrier uses the same cp.async.mbarrier.arrive mechanism).
//
// 128 threads, three tiles of 512 ints, double-buffered in shared memory. For tile k every
// thread t copies its own 16 bytes (ints 4t..4t+3 of the tile) with
//   cp.async.cg.shared.global [dst], [src], 16;
// and then executes
//   cp.async.mbarrier.arrive.noinc.shared::cta.b64 [bar];
// which makes the mbarrier receive one arrive-on once all of this thread's earlier cp.async
// have completed. `bar` is initialised with 128 = blockDim.x: with .noinc that async
// arrive *is* the thread's arrival for the phase (nobody also calls mbarrier.arrive).
// Tile k is phase k of `bar`; every thread waits with try_wait.parity (parity k & 1),
// then reads the 16 bytes its right-hand neighbour copied:
//
//   out[k * 128 + t] = sum(tile[4u .. 4u+3]) - tile[4t]       where u = (t + 1) % 128
//
// Two buffers: the copy of tile k + 1 (issued right after the wait for tile k, so it
// overlaps the compute) goes to the other buffer, the one read for tile k - 1. The
// __syncthreads() at the end of each iteration makes sure everybody has finished reading a
// buffer before anyone refills it. (The mbarrier alone cannot: a thread's async arrival
// only says that *its copies* have landed, not that it has finished reading.)
//
// Launch: grid 1, block 128, in = 0,1,...,1535, out = 384 ints.

#define THREADS 128
#define TILES 3
#define TILE (THREADS * 4)

__device__ __forceinline__ unsigned smem_addr(const void *p)
{
    return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ void cp_async16(unsigned dst, const void *src)
{
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(dst), "l"(src) : "memory");
}

// One arrive-on on `bar` when all of this thread's prior cp.async have completed; .noinc:
// the pending count is not raised first, so the arrival counts toward the init count.
__device__ __forceinline__ void cp_async_mbar_arrive_noinc(unsigned bar)
{
    asm volatile("cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%0];" :: "r"(bar) : "memory");
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

extern "C" __global__ void cp_async_mbarrier(const int *in, int *out)
{
    __shared__ __align__(8) unsigned long long bar;
    __shared__ __align__(16) int tile[2][TILE];

    unsigned t = threadIdx.x;
    unsigned b = smem_addr(&bar);

    if (t == 0)
        asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(b), "r"(THREADS) : "memory");
    __syncthreads();

    // prologue: tile 0 into buffer 0
    cp_async16(smem_addr(&tile[0][4 * t]), in + 4 * t);
    cp_async_mbar_arrive_noinc(b);

#pragma unroll 1
    for (int k = 0; k < TILES; ++k) {
        mbar_wait_parity(b, k & 1);                      // tile k has landed (phase k)
        if (k + 1 < TILES) {                             // prefetch tile k + 1
            cp_async16(smem_addr(&tile[(k + 1) & 1][4 * t]), in + (k + 1) * TILE + 4 * t);
            cp_async_mbar_arrive_noinc(b);
        }
        const int *cur = tile[k & 1];
        unsigned u = (t + 1) % THREADS;
        int v = cur[4 * u] + cur[4 * u + 1] + cur[4 * u + 2] + cur[4 * u + 3] - cur[4 * t];
        out[k * THREADS + t] = v;
        __syncthreads();                                 // buffer k & 1 free for tile k + 2
    }
}
