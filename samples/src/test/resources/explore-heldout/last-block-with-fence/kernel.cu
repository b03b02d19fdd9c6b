// last-block-with-fence (the fix of last-block-without-fence, explore test): the same "last
// block" reduction with __threadfence() after the partial's store and after the ticket, so the
// relaxed ticket atomics synchronize through the fences (PTX memory model: fence-SC / release
// patterns) and the last CTA's loads of the partials are ordered after their stores.
//
// Launch: grid 3, block 32, in = 0..95, partial = 3 ints, count = 1 uint, out = 1 int.

extern "C" __global__ void last_block(const int *in, int *partial, unsigned *count, int *out)
{
    unsigned t = threadIdx.x;
    int v = in[blockIdx.x * 32 + t];
#pragma unroll
    for (int d = 16; d > 0; d >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, d);
    if (t == 0) {
        partial[blockIdx.x] = v;
        __threadfence();                                 // FIX: the partial before the ticket
        unsigned ticket = atomicAdd(count, 1u);
        if (ticket == gridDim.x - 1) {
            __threadfence();                             // FIX: the ticket before the partials
            int sum = 0;
            for (unsigned b = 0; b < gridDim.x; ++b)
                sum += partial[b];
            *out = sum;
        }
    }
}
