// Two warps take turns through a flag in shared memory: each waits for its turn by spinning on
// an atomic read of `turn`, adds its lane values into `acc`, reconverges with __syncwarp(), and
// lane 0 passes the turn on with an atomic exchange. Correct under any fair schedule: whichever
// warp runs, the other only spins until the turn comes (and the fences order the data).
constexpr int ROUNDS = 4;

__global__ void __launch_bounds__(64) warp_handoff(int* out) {
    __shared__ int turn;
    __shared__ int acc[32];
    const int warp = threadIdx.x / 32;
    const int lane = threadIdx.x % 32;
    if (threadIdx.x < 32) acc[lane] = 0;
    if (threadIdx.x == 0) turn = 0;
    __syncthreads();
    for (int r = 0; r < ROUNDS; ++r) {
        const int mine = 2 * r + warp;
        while (atomicAdd(&turn, 0) != mine) {
        }
        __threadfence_block();
        acc[lane] += 10 * mine + lane;
        __syncwarp();
        __threadfence_block();
        if (lane == 0) atomicExch(&turn, mine + 1);
    }
    __syncthreads();
    if (threadIdx.x < 32) out[lane] = acc[lane];
}

// The same hand-off between the two halves of one warp (independent thread scheduling lets
// diverged lanes make progress): each half spins for its turn, works, reconverges with
// __syncwarp(its half), and its first lane passes the turn on.
__global__ void __launch_bounds__(32) half_warp_handoff(int* out) {
    __shared__ int turn;
    __shared__ int acc[16];
    const int half = threadIdx.x / 16;
    const int lane = threadIdx.x % 16;
    const unsigned mask = half == 0 ? 0x0000FFFFu : 0xFFFF0000u;
    if (threadIdx.x < 16) acc[lane] = 0;
    if (threadIdx.x == 0) turn = 0;
    __syncwarp();
    for (int r = 0; r < ROUNDS; ++r) {
        const int mine = 2 * r + half;
        while (atomicAdd(&turn, 0) != mine) {
        }
        __threadfence_block();
        acc[lane] += 10 * mine + lane;
        __syncwarp(mask);
        __threadfence_block();
        if (lane == 0) atomicExch(&turn, mine + 1);
    }
    __syncwarp();
    if (threadIdx.x < 16) out[lane] = acc[lane];
}
