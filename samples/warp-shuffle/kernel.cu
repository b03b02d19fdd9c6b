// warp-shuffle: warp-level cooperation without shared-memory barriers.
//
// Each warp (32 lanes) of each block:
//   1. votes with __ballot_sync       -> PTX vote.sync.ballot.b32: bit i of the result is
//      lane i's predicate (here: "my value is a multiple of 3");
//   2. sums its 32 values with __shfl_down_sync -> PTX shfl.sync.down.b32, five steps
//      (offsets 16, 8, 4, 2, 1); after them lane 0 holds the warp total;
//   3. rotates values through shared memory: every lane stores its value, __syncwarp()
//      (PTX bar.warp.sync) orders those stores before the loads, then every lane reads
//      the value of the next lane (lane 31 reads lane 0).
// All three name the full mask 0xffffffff: every lane of the warp takes part.
//
// Launch: grid 2, block 64 (4 warps in all), in = 0,1,...,127.

#define FULL_MASK 0xffffffffu
#define BLOCK 64

extern "C" __global__ void warp_sums(const int *in, int *sums, unsigned *mult3_mask,
                                     int *rotated)
{
    __shared__ int stage[BLOCK];

    unsigned tid = threadIdx.x;
    unsigned lane = tid % 32;
    unsigned gid = blockIdx.x * blockDim.x + tid;
    unsigned warp = gid / 32;                 // global warp number: one output each

    int v = in[gid];

    // 1. Vote: which lanes hold a multiple of 3?
    unsigned mask = __ballot_sync(FULL_MASK, v % 3 == 0);

    // 2. Tree sum across the warp through registers.
    int sum = v;
    for (int offset = 16; offset > 0; offset /= 2)
        sum += __shfl_down_sync(FULL_MASK, sum, offset);

    // 3. Rotate by one lane through shared memory.
    stage[tid] = v;
    __syncwarp();                             // the warp's stores before its loads
    unsigned warp_base = tid - lane;
    rotated[gid] = stage[warp_base + (lane + 1) % 32];

    if (lane == 0) {
        sums[warp] = sum;
        mult3_mask[warp] = mask;
    }
}
