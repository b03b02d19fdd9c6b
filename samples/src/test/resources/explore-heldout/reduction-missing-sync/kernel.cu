// reduction-missing-sync (held-out BUG, explore test): a shared-memory tree reduction of 128
// ints in one CTA of 4 warps. Each round halves the live threads; once only warp 0 works
// (stride 32 and below) the author dropped the barrier between rounds, as in the old
// "warp-synchronous" reductions. Since Volta the lanes of a warp are not ordered without a
// __syncwarp(): lane 0 reads sums[16] in the stride-16 round while lane 16 wrote it in the
// stride-32 round, unordered. The race detector sees it in every schedule (the default too):
// the minimal schedule is the default one.
// Fix: __syncwarp() (or __syncthreads()) after every round.
//
// Launch: grid 1, block 128, in = 0..127, out = 1 int.

extern "C" __global__ void reduce_missing_sync(const int *in, int *out)
{
    __shared__ int sums[128];
    unsigned t = threadIdx.x;
    sums[t] = in[t];
    __syncthreads();
    if (t < 64)
        sums[t] += sums[t + 64];
    __syncthreads();
#pragma unroll 1
    for (unsigned s = 32; s > 0; s >>= 1) {
        if (t < s)
            sums[t] += sums[t + s];
        // BUG: no __syncwarp() here; the rounds' lanes are unordered
    }
    if (t == 0)
        out[0] = sums[0];
}
