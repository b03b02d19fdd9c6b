// flag-without-fence (held-out BUG, explore test): warp 0 fills a shared table (some work per
// entry) and then sets a `ready` flag with a volatile store; warp 1 looks at the flag once: if
// it is set it uses the table, else it computes the values itself. No fence, no release or
// acquire: seeing the flag does not order the table's stores before warp 1's loads (PTX memory
// model: volatile accesses are relaxed), so the table reads race with the stores. On the
// interleavings where warp 1 looks before warp 0 sets the flag (the default one among them) it
// never reads the table and the run is clean.
// Fix: st.release / ld.acquire on the flag (or __threadfence_block() on both sides).
//
// Launch: grid 1, block 64, in = 0..31, out = 32 ints.

extern "C" __global__ void flag_no_fence(const int *in, int *out)
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
        if (t == 0)
            ready = 1;                                   // BUG: no fence / release before the flag
    } else {
        unsigned c = t - 32;
        int r = __shfl_sync(0xffffffffu, ready, 0);      // lane 0's view of the flag, for the warp
        if (r == 1)
            out[c] = table[c];                           // BUG: not ordered after warp 0's stores
        else
            out[c] = -1;                                 // "not ready yet": the caller retries
    }
}
