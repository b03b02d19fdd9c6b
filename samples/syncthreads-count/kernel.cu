// syncthreads-count: block-wide votes with the reducing forms of __syncthreads().
//
//   __syncthreads_count(p)  -> PTX bar.red.popc.u32  (how many threads had p true)
//   __syncthreads_and(p)    -> PTX bar.red.and.pred  (1 if p was true in every thread)
//   __syncthreads_or(p)     -> PTX bar.red.or.pred   (1 if p was true in any thread)
//
// Each is a full barrier (barrier 0, all threads of the block) that also combines one
// predicate per thread and hands the result back to every thread. To show that every warp
// receives the same answer, lane 0 of each warp writes the five results to its own row of
// `out` (row = warp index, 5 columns).
//
// Launch: grid 1, block 128, in = 0,1,2,...,127.

#define RESULTS 5

extern "C" __global__ void vote_block(const int *in, int *out)
{
    unsigned tid = threadIdx.x;
    int v = in[tid];

    int multiples_of_3 = __syncthreads_count(v % 3 == 0);   // 43 of 0..127
    int all_small      = __syncthreads_and(v < 1000);       // true everywhere -> 1
    int all_nonzero    = __syncthreads_and(v != 0);         // false for thread 0 -> 0
    int any_is_100     = __syncthreads_or(v == 100);        // thread 100 -> 1
    int any_negative   = __syncthreads_or(v < 0);           // nobody -> 0

    if (tid % 32 == 0) {
        int *row = out + (tid / 32) * RESULTS;
        row[0] = multiples_of_3;
        row[1] = all_small;
        row[2] = all_nonzero;
        row[3] = any_is_100;
        row[4] = any_negative;
    }
}
