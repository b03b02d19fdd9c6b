// named-barrier-too-many-fixed: the named barrier's thread count is the number of threads
// that really execute it (the fix of named-barrier-too-many).
//
// The block has 4 warps. Warps 0 and 1 (64 threads) are the "math" warps: they stage
// values in shared memory and synchronise among themselves on named barrier 1, so that
// warps 2 and 3 are not held up. Warps 2 and 3 copy their part of the input and exit.
//
// `bar.sync 1, 64`: 64 threads, the two math warps, execute it, and it completes as soon
// as both have arrived. Warps 2 and 3 never touch barrier 1 and are never waited for;
// their exit does not matter to a barrier with an explicit count (PTX ISA 9.7.13.1).
//
// Launch: grid 1, block 128, in = 0,1,...,127.

#define MATH_THREADS 64    // warps 0 and 1: the threads that execute bar.sync 1

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
