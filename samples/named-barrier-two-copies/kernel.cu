// named-barrier-two-copies (BUG): the same named barrier, `bar.sync 14, 32`, written into
// both arms of a branch that splits a warp; the warp's lanes reach two different copies of
// the instruction and neither completes (facebookexperimental/triton #1040).
//
// Block 64. Warp 0 is another partition that copies its half of the input and is done.
// Warp 1 is a one-warp partition that synchronises its own 32 lanes on named barrier 14
// with a count of 32 (a warp-local barrier, the way warp-specialising compilers emit one):
// every lane stores buf[lane] = in[32 + lane] * 2, then the lanes read each other's values,
// lanes 0-15 as out[32 + l] = buf[l] + buf[l + 16] and lanes 16-31 as
// out[32 + l] = buf[l] - buf[l - 16].
//
// The bug: the barrier was placed (duplicated by a compiler transformation, or by hand)
// inside each arm of `if (lane < 16)`, so the PTX has two `bar.sync 14, 32` instructions
// and the warp arrives half at one, half at the other. bar.sync is the .aligned form:
// every thread that takes part must execute the same instruction (PTX ISA 9.7.13.1), and
// a warp split across two copies is undefined. In the report the kernel hung;
// BarrierScope reports barrier-divergence naming both lines.
//
// Fix (named-barrier-two-copies-fixed): one barrier, after the branch has joined, where
// the whole warp executes the same instruction.
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
    if (lane < 16) {
        asm volatile("bar.sync 14, 32;" ::: "memory");    // copy 1 (lanes 0-15)
        out[32 + lane] = buf[lane] + buf[lane + 16];
    } else {
        asm volatile("bar.sync 14, 32;" ::: "memory");    // copy 2 (lanes 16-31)
        out[32 + lane] = buf[lane] - buf[lane - 16];
    }
}
