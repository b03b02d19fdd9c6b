// two-late-reads (explore test of the minimiser): a failure that needs two scheduling decisions
// together. Warp 0 raises flag `a`, warp 2 raises flag `b`. Warp 1 raises `x` when it finds `a`
// still down; warp 3 waits at named barrier 1 (which no other warp reaches: a deadlock) when it
// finds `b` still down and `x` up. So warp 3 hangs only if warp 1 reads `a` before warp 0 raises
// it AND warp 3 reads `b` before warp 2 raises it, after warp 1 raised `x`: neither switch alone
// fails, so the minimal schedule keeps both and names both. The flags are global atomics (no
// race), zero at launch, with no barrier before them: the default schedule runs warps 0, 1, 2, 3
// in turn and passes.
//
// Launch: grid 1, block 128, flags = 3 zero ints (a, b, x), out = 128 ints.

extern "C" __global__ void two_late_reads(int *flags, int *out)
{
    int &a = flags[0], &b = flags[1], &x = flags[2];
    unsigned w = threadIdx.x / 32;
    int seen = 0;
    if (w == 0) {
        atomicExch(&a, 1);
    } else if (w == 1) {
        seen = atomicAdd(&a, 0);
        if (seen == 0) atomicExch(&x, 1);
    } else if (w == 2) {
        atomicExch(&b, 1);
    } else {
        seen = atomicAdd(&b, 0);
        if (seen == 0 && atomicAdd(&x, 0) == 1) asm volatile("bar.sync 1, 64;" ::: "memory");
    }
    out[threadIdx.x] = seen;
}
