// named-barrier-count (held-out BUG, explore test): two producer warps hand data to one
// consumer warp through named barrier 1. The producers `bar.arrive`, the consumer `bar.sync`s;
// all three should be counted (96 threads), but the count says 64, so whichever two warps
// arrive first complete a generation. The consumer (no work of its own) usually arrives first,
// then producer 0 (less work than producer 1): the consumer reads producer 0's slice, correctly
// ordered, and producer 1's late arrival is harmless. Other interleavings: producer 1 before
// producer 0, and the consumer reads producer 0's slice unordered (a race); both producers
// before the consumer, and their generation completes with no one waiting, so the consumer waits
// on a new one that no one will complete (a deadlock).
// Fix: bar.arrive 1, 96 and bar.sync 1, 96.
//
// Launch: grid 1, block 96, in = 0..63, out = 32 ints.

extern "C" __global__ void named_count(const int *in, int *out)
{
    __shared__ int part[64];
    unsigned t = threadIdx.x;
    if (t < 64) {
        int v = in[t];
        int n = t < 32 ? 3 : 9;                          // producer 1 has more work
#pragma unroll 1
        for (int i = 0; i < n; ++i)
            v = v * 7 + i;
        part[t] = v;
        asm volatile("bar.arrive 1, 64;" ::: "memory");  // BUG: 96 threads meet here
    } else {
        unsigned c = t - 64;
        asm volatile("bar.sync 1, 64;" ::: "memory");    // BUG: 96
        out[c] = part[c];
    }
}
