// last-block-without-fence (held-out BUG, explore test): the "last block" reduction. Each CTA
// sums its 32 inputs with warp shuffles, lane 0 stores the CTA's partial sum to global memory and
// takes a ticket with atomicAdd on a global counter; the CTA that draws the last ticket adds up
// every CTA's partial. The atomic is relaxed and there is no __threadfence() between the partial's
// store and the ticket (nor between the ticket and the loads of the partials): drawing the last
// ticket does not order the other CTAs' partial stores before the last CTA's loads (PTX memory
// model, morally strong relaxed atomics give no release or acquire), so the loads race with the
// stores of whichever CTAs came before, in every schedule.
// Fix: __threadfence() after the partial's store and after the ticket (the pattern of the CUDA
// programming guide), which makes the ticket's atomic a release / acquire pair through the fences.
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
        // BUG: no __threadfence() here: the ticket does not publish the partial
        unsigned ticket = atomicAdd(count, 1u);
        if (ticket == gridDim.x - 1) {
            // BUG: nor here: the last ticket does not acquire the other CTAs' partials
            int sum = 0;
            for (unsigned b = 0; b < gridDim.x; ++b)
                sum += partial[b];
            *out = sum;
        }
    }
}
