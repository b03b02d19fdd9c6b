// flag-check-deadlock (BUG, explore test): warp 1 decides whether to join named barrier 1 by
// reading a shared flag that warp 0 sets just before it waits there. Warp 1 does some work
// first, so on the usual interleavings warp 0 has set the flag and both meet at the barrier;
// an interleaving in which warp 1 reads the flag before warp 0 stores it makes warp 1 skip the
// barrier, and warp 0 waits on it forever. (The read is also a data race on `flag`.)
// Fix: __syncthreads() between the store and the read, or no decision on unordered data.
//
// Launch: grid 1, block 64, out = 64 ints.

extern "C" __global__ void flag_check(int *out)
{
    __shared__ volatile int flag;
    unsigned t = threadIdx.x;
    if (t == 0)
        flag = 0;
    __syncthreads();

    if (t < 32) {
        if (t == 0)
            flag = 1;                                    // "I am going to barrier 1"
        __syncwarp();
        asm volatile("barrier.sync 1, 64;" ::: "memory");
        out[t] = 1;
    } else {
        int v = t;
#pragma unroll 1
        for (int i = 0; i < 4; ++i)
            v = v * 7 + i;                               // some work first
        out[t] = v;
        if (flag == 1)                                   // BUG: unordered read decides the barrier
            asm volatile("barrier.sync 1, 64;" ::: "memory");
    }
}
