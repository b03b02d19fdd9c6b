// named-producer-consumer: warp specialisation on two named CTA barriers.
//
// Warp 0 is the producer, warp 1 the consumer; they hand a 32-int tile back and forth
// through shared memory, ITERS times. Two named barriers, each counting 64 threads
// (the two warps), make the hand-off safe:
//
//   barrier 1 "FULL":  producer  bar.arrive 1, 64  after writing the tile  (does not wait)
//                      consumer  bar.sync   1, 64  before reading it
//   barrier 2 "EMPTY": consumer  bar.arrive 2, 64  after reading the tile  (does not wait)
//                      producer  bar.sync   2, 64  before overwriting it
//
// This is the producer/consumer pattern of PTX ISA 9.7.13.1: between its arrive and its
// sync the producer already fetches the next tile from global memory.
// Warp 2 takes no part: it returns at once. Because both barriers give an explicit thread
// count (64), they never wait for it.
//
// Launch: grid 1, block 96, in = 0,1,...,127 (ITERS * 32 values).

#define ITERS 4
#define TILE 32

// Barrier ids and thread count are immediates in the PTX (inline asm, copied verbatim).
#define BAR_ARRIVE(id) asm volatile("bar.arrive " #id ", 64;" ::: "memory")
#define BAR_SYNC(id)   asm volatile("bar.sync "   #id ", 64;" ::: "memory")
#define FULL  1
#define EMPTY 2

extern "C" __global__ void pipeline(const int *in, int *out)
{
    __shared__ int tile[TILE];

    unsigned warp = threadIdx.x / 32;
    unsigned lane = threadIdx.x % 32;

    if (warp == 0) {
        // ---- producer ----
        int next = in[lane];                      // tile 0
#pragma unroll 1                                  // keep a real loop: one PC per barrier op
        for (int it = 0; it < ITERS; ++it) {
            tile[lane] = next * 2;                // produce tile `it`
            BAR_ARRIVE(1);                        // FULL: tile is ready
            if (it + 1 < ITERS)
                next = in[(it + 1) * TILE + lane];    // prefetch while the consumer works
            BAR_SYNC(2);                          // EMPTY: wait until the consumer read it
        }
    } else if (warp == 1) {
        // ---- consumer ----
#pragma unroll 1
        for (int it = 0; it < ITERS; ++it) {
            BAR_SYNC(1);                          // FULL: wait for tile `it`
            int v = tile[TILE - 1 - lane];        // read another lane's element (reversed)
            BAR_ARRIVE(2);                        // EMPTY: producer may overwrite
            out[it * TILE + lane] = v + it;
        }
    }
    // warp 2 (and any further warp) does nothing.
}
