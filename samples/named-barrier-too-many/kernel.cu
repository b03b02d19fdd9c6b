// named-barrier-too-many (BUG): a named barrier that waits for more threads than will
// ever arrive.
//
// The block has 4 warps. Warps 0 and 1 (64 threads) are the "math" warps: they stage
// values in shared memory and synchronise among themselves on named barrier 1, so that
// warps 2 and 3 are not held up. Warps 2 and 3 copy their part of the input and exit.
//
// The bug: the thread count given to `bar.sync 1, N` says 128, but only the 64 math
// threads ever execute it. Warps 2 and 3 exit, and exited threads never count toward an
// explicit thread count (PTX ISA 9.7.13.1), so barrier 1 stays at 64 of 128 forever:
// warps 0 and 1 deadlock.
//
// Fix: MATH_THREADS must equal the number of threads that execute the barrier, 64.
//
// Launch: grid 1, block 128, in = 0,1,...,127.

#define MATH_THREADS 128   // BUG: should be 64 (warps 0 and 1 only)

extern "C" __global__ void math_warps(const int *in, int *out)
{
    __shared__ int staged[64];

    unsigned tid = threadIdx.x;

    if (tid < 64) {
        // math warps: stage, wait for each other, read a value the other warp wrote
        staged[tid] = in[tid] * 3;
        asm volatile("bar.sync 1, %0;" :: "n"(MATH_THREADS) : "memory");
        out[tid] = staged[63 - tid];
    } else {
        // copy warps: independent work, then exit
        out[tid] = in[tid];
    }
}
