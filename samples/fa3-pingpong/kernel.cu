// fa3-pingpong: FlashAttention-3's "ping-pong" schedule of two consumer warp groups on two
// named barriers (Shah et al. 2024, section 3.1; hopper/mainloop_fwd_sm90_tma_gmma_ws.hpp,
// warp_scheduler_barrier_sync / warp_scheduler_barrier_arrive).
//
// Block 256 = two warp groups of 128 threads (4 warps each): WG1 = warps 0-3, WG2 = warps
// 4-7. Each thread owns one query row q = Q[tid] and runs an attention-like loop over
// NBLK blocks of BLK keys. The tensor cores are shared by the whole SM, so FA3 lets the
// warp groups take turns: while WG1 runs its GEMMs, WG2 runs its softmax, and the other
// way round. The turns are handed over on two named barriers, one per warp group, each
// counting 2 * 128 threads:
//
//   bar.sync   SCHED(me),    256   wait for my turn (the other WG's 128 threads arrived)
//   ... my GEMMs ...
//   bar.arrive SCHED(other), 256   the other WG may run its GEMMs now (does not wait)
//   ... my softmax, overlapping the other WG's GEMMs ...
//
// The ids are FA3's WarpSchedulerWG1/WG2 (4 and 5) plus the 8 ids CUTLASS reserves for
// itself: 12 and 13. WG2 gives WG1 the very first turn with one bar.arrive before the loop.
//
// The math is an exact integer stand-in for attention (the schedule is the point):
//   GEMM0 (S = Q K^T)  s[j] = q * K[n*BLK + j]
//   softmax            m' = max(m, max_j s[j]); o -= (m' - m) * vsum  (FA's rescale,
//                      exp(m - m') in the log domain); p[j] = s[j] - m'
//   GEMM1 (O += P V)   o += sum_j p[j] * V[n*BLK + j]; vsum += sum_j V[n*BLK + j]
// As in FA3, turn n issues GEMM0 of block n together with GEMM1 of block n-1, so a WG
// takes NBLK + 1 turns and its last turn does only GEMM1. The result is
//   out[r] = sum_j (Q[r] * K[j] - M) * V[j],  M = max_j Q[r] * K[j].
// The first thread of each WG logs its turns in shared memory; `order` receives the log:
// 1, 2, 1, 2, ... (warp group numbers), the ping-pong made visible.
//
// Launch: grid 1, block 256, Q[r] = (r * 37) % 19 - 9 (-9..9), K and V: 12 values each
// (NBLK = 3, BLK = 4).

#define WG_THREADS 128
#define NBLK 3
#define BLK 4
#define TURNS (2 * (NBLK + 1))

// FA3: cutlass::arch::NamedBarrier::sync/arrive(2 * NumThreadsPerWarpGroup, id); the id is a
// register, as in FA3, so both warp groups run the same instructions.
__device__ __forceinline__ void sched_sync(unsigned id)
{
    asm volatile("bar.sync %0, %1;" :: "r"(id), "n"(2 * WG_THREADS) : "memory");
}
__device__ __forceinline__ void sched_arrive(unsigned id)
{
    asm volatile("bar.arrive %0, %1;" :: "r"(id), "n"(2 * WG_THREADS) : "memory");
}

extern "C" __global__ void pingpong(const int *Q, const int *K, const int *V, int *out, int *order)
{
    __shared__ int turn_log[TURNS];
    __shared__ int turns;

    unsigned tid = threadIdx.x;
    unsigned wg = tid / WG_THREADS + 1;            // 1 or 2, FA3's canonical warp group index
    unsigned me = 11 + wg;                          // SCHED(me): 12 for WG1, 13 for WG2
    unsigned other = 11 + (3 - wg);                 // SCHED(other)

    if (tid == 0)
        turns = 0;
    __syncthreads();

    if (wg == 2)
        sched_arrive(12);                           // WG1 goes first

    int q = Q[tid];
    int m = 0, o = 0, vsum = 0;
    int s[BLK], p[BLK];
#pragma unroll 1
    for (int n = 0; n <= NBLK; ++n) {
        sched_sync(me);                             // my turn on the tensor cores
        if (tid % WG_THREADS == 0)
            turn_log[turns++] = (int)wg;
        if (n < NBLK) {                             // GEMM0 of block n
            for (int j = 0; j < BLK; ++j)
                s[j] = q * K[n * BLK + j];
        }
        if (n > 0) {                                // GEMM1 of block n - 1
            for (int j = 0; j < BLK; ++j) {
                o += p[j] * V[(n - 1) * BLK + j];
                vsum += V[(n - 1) * BLK + j];
            }
        }
        sched_arrive(other);                        // the other warp group's turn
        if (n < NBLK) {                             // softmax of block n, overlapping
            int mn = n == 0 ? s[0] : m;
            for (int j = 0; j < BLK; ++j)
                mn = max(mn, s[j]);
            o -= (mn - m) * vsum;                   // rescale what is accumulated so far
            for (int j = 0; j < BLK; ++j)
                p[j] = s[j] - mn;
            m = mn;
        }
    }
    out[tid] = o;

    __syncthreads();
    if (tid < TURNS)
        order[tid] = turn_log[tid];
}
