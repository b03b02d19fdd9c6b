// tile-reload-without-sync (held-out BUG, explore test): a block of two warps reverses a
// 64-element array tile by tile through one shared buffer. Each round, every thread stores its
// element of the tile, __syncthreads(), then reads the mirrored element (written by the other
// warp) and stores it out. The barrier that should close the round is missing: a warp that
// finishes its reads goes on to load the next tile into the same buffer while the other warp
// may still be reading the previous tile's words there (a write-after-read race across warps;
// on hardware, a wrong element now and then). The race detector needs no particular
// interleaving: nothing orders the other warp's read of round 0 before this warp's write of
// round 1, whichever runs first, so the default schedule alone shows it.
// Fix: __syncthreads() at the end of each round.
//
// Launch: grid 1, block 64, in = 0..191, out = 192 ints.

extern "C" __global__ void tile_reload(const int *in, int *out)
{
    __shared__ int tile[64];
    unsigned t = threadIdx.x;
#pragma unroll 1
    for (int r = 0; r < 3; ++r) {
        tile[t] = in[64 * r + t];
        __syncthreads();
        out[64 * r + t] = tile[63 - t];
        // BUG: __syncthreads() missing here before the next round overwrites tile[]
    }
}
