// named-barrier-two-copies-fixed: one `bar.sync 14, 32`, after the branch has joined, so
// the whole warp executes the same barrier instruction (the fix of named-barrier-two-copies,
// facebookexperimental/triton #1040).
//
// Block 64. Warp 0 is another partition that copies its half of the input and is done.
// Warp 1 is a one-warp partition that synchronises its own 32 lanes on named barrier 14
// with a count of 32: every lane stores buf[lane] = in[32 + lane] * 2, passes the barrier,
// then lanes 0-15 write out[32 + l] = buf[l] + buf[l + 16] and lanes 16-31 write
// out[32 + l] = buf[l] - buf[l - 16].
//
// (Another correct fix keeps the two copies but uses the non-aligned form,
// `barrier.sync 14, 32`, which PTX ISA 9.7.13.1 allows to be reached by the threads of a
// warp through different instructions.)
//
// Launch: grid 1, block 64, in = 0,1,...,63, out = 64 ints.

extern "C" __global__ void warp_partition(const int *in, int *out)
{
    __shared__ int buf[32];

    unsigned warp = threadIdx.x / 32;
    unsigned lane = threadIdx.x % 32;

    if (warp == 0) {
        out[lane] = in[lane] + 1;                          // the other partition
        return;
    }

    buf[lane] = in[32 + lane] * 2;
    asm volatile("bar.sync 14, 32;" ::: "memory");        // one copy, the whole warp
    if (lane < 16)
        out[32 + lane] = buf[lane] + buf[lane + 16];
    else
        out[32 + lane] = buf[lane] - buf[lane - 16];
}
