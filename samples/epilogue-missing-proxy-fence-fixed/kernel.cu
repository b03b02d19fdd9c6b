// epilogue-missing-proxy-fence-fixed: the epilogue's ordinary stores to the shared tile are
// ordered before the bulk store's async-proxy read by fence.proxy.async.shared::cta in every
// writer, before the barrier (the fix of epilogue-missing-proxy-fence).
//
// Grid 1, block 128. Thread t computes out[t] = 3 * in[t] + 1 and stores it into the shared
// tile `tile[t]` (st.shared, the generic proxy), then executes fence.proxy.async.shared::cta
// (CUTLASS tma_store_fence()). After __syncthreads() thread 0 stores the whole 512-byte tile
// to `out` with one bulk copy (cp.async.bulk.global.shared::cta.bulk_group) and waits for it
// with cp.async.bulk.wait_group 0.
//
// Launch: grid 1, block 128, in = 0,1,...,127, out = 128 ints. out[t] = 3 * t + 1.

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

// CUTLASS tma_store_fence(): orders this thread's generic-proxy writes to shared memory before
// later async-proxy accesses of them.
__device__ __forceinline__ void fence_view_async_shared()
{
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
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
    fence_view_async_shared();                // FIX: ... made visible to the async proxy
    __syncthreads();                          // and handed to thread 0

    if (t == 0) {
        bulk_copy_s2g(out, smem_addr(tile), N * 4);   // async-proxy read of the tile
        bulk_commit_and_wait_all();
    }
}
