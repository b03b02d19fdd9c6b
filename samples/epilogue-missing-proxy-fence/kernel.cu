// epilogue-missing-proxy-fence (BUG): an epilogue writes its output tile to shared memory with
// ordinary stores and hands it to a bulk store (the async proxy) without fence.proxy.async.
//
// Grid 1, block 128. Thread t computes out[t] = 3 * in[t] + 1 and stores it into the shared
// tile `tile[t]` (st.shared, the generic proxy). After __syncthreads() thread 0 stores the
// whole 512-byte tile to `out` with one bulk copy (cp.async.bulk.global.shared::cta.bulk_group,
// CUTLASS SM90_BULK_COPY_S2G; the same rule holds for a TMA store, cp.async.bulk.tensor), and
// waits for it with cp.async.bulk.wait_group 0.
//
// The bug: the bulk copy reads the tile through the async proxy, the stores wrote it through
// the generic proxy, and nothing orders the two proxies. __syncthreads() orders the threads,
// not the proxies: every writer must execute fence.proxy.async.shared::cta after its stores
// and before the barrier (PTX ISA 9.7.13.4; CUTLASS tma_store_fence()). On hardware the copy
// may read stale shared memory; BarrierScope reports proxy-fence-missing.
//
// Fix (epilogue-missing-proxy-fence-fixed): fence.proxy.async.shared::cta in every thread
// between its st.shared and __syncthreads().
//
// Launch: grid 1, block 128, in = 0,1,...,127, out = 128 ints.

#define N 128

__device__ __forceinline__ unsigned smem_addr(const void *p)
{
    return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

// CUTLASS SM90_BULK_COPY_S2G: shared -> global bulk copy, tracked by the thread's bulk groups.
__device__ __forceinline__ void bulk_copy_s2g(void *dst, unsigned src, unsigned bytes)
{
    asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;"
                 :: "l"(dst), "r"(src), "r"(bytes) : "memory");
}

__device__ __forceinline__ void bulk_commit_and_wait_all()
{
    asm volatile("cp.async.bulk.commit_group;\n\t"
                 "cp.async.bulk.wait_group 0;" ::: "memory");
}

extern "C" __global__ void epilogue_store(const int *in, int *out)
{
    __shared__ __align__(128) int tile[N];   // bulk copies need 16-byte alignment

    unsigned t = threadIdx.x;
    tile[t] = 3 * in[t] + 1;                  // generic-proxy write
    __syncthreads();                          // BUG: orders the threads, not the proxies

    if (t == 0) {
        bulk_copy_s2g(out, smem_addr(tile), N * 4);   // async-proxy read of the tile
        bulk_commit_and_wait_all();
    }
}
