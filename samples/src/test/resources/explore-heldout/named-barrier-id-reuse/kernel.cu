// named-barrier-id-reuse (held-out BUG, explore test): a block of four warps runs two
// independent producer/consumer pairs, A (warp 0 produces, warp 1 consumes) and B (warp 2
// produces, warp 3 consumes). Each producer fills its pair's buffer and `bar.arrive`s; its
// consumer `bar.sync`s and reads the buffer. Each pair counts 64 threads, as it should, but both
// pairs were given named barrier 1 (the second pair was pasted from the first). Barrier 1 then
// completes a generation with whichever two warps arrive first:
// - in warp order (the default schedule) producer A and consumer A meet, then producer B and
//   consumer B: correct;
// - producer B (or consumer B) arriving before consumer A pairs warps of different pairs:
//   a consumer passes the barrier without its own producer's arrival and reads the buffer
//   unordered with its write (a race; on hardware, stale data).
// Fix: a barrier id per pair (bar.arrive/bar.sync 2, 64 for pair B).
//
// Launch: grid 1, block 128, in = 0..63, out = 64 ints.

extern "C" __global__ void named_reuse(const int *in, int *out)
{
    __shared__ int buf[2][32];
    unsigned t = threadIdx.x;
    unsigned warp = t / 32, lane = t % 32;
    unsigned pair = warp / 2;                          // 0: A, 1: B
    if (warp % 2 == 0) {                               // producer
        int v = in[32 * pair + lane];
#pragma unroll 1
        for (int i = 0; i < 4; ++i)
            v = v * 3 + i;
        buf[pair][lane] = v;
        asm volatile("bar.arrive 1, 64;" ::: "memory"); // BUG: pair B needs its own id
    } else {                                           // consumer
        asm volatile("bar.sync 1, 64;" ::: "memory");   // BUG: pair B needs its own id
        out[32 * pair + lane] = buf[pair][31 - lane];
    }
}
