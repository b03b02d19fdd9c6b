// flag-with-fence (the fix of flag-without-fence, explore test): warp 0 fills a shared table
// and sets a `ready` flag with a volatile store; warp 1 looks at the flag once and uses the table
// if it is set. A __threadfence_block() before the flag store and one after the flag load order
// the table's stores before warp 1's loads whenever warp 1 sees the flag set (fence-fence
// synchronization, PTX memory model): no race under any schedule.
//
// Launch: grid 1, block 64, in = 0..31, out = 32 ints.

extern "C" __global__ void flag_with_fence(const int *in, int *out)
{
    __shared__ int table[32];
    __shared__ volatile int ready;
    unsigned t = threadIdx.x;
    if (t == 0)
        ready = 0;
    __syncthreads();

    if (t < 32) {
        int v = in[t];
#pragma unroll 1
        for (int i = 0; i < 8; ++i)
            v = v * 3 + i;                               // the producer's work first
        table[t] = v;
        __syncwarp();
        __threadfence_block();                           // the fix: release the table's stores
        if (t == 0)
            ready = 1;
    } else {
        unsigned c = t - 32;
        int r = __shfl_sync(0xffffffffu, ready, 0);      // lane 0's view of the flag, for the warp
        __threadfence_block();                           // the fix: acquire after seeing it
        if (r == 1)
            out[c] = table[c];
        else
            out[c] = -1;                                 // "not ready yet": the caller retries
    }
}
