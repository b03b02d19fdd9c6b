// syncthreads-partial-block-fixed: the block reduction of warp group 0 synchronises on
// named barriers for its 128 threads (the fix of syncthreads-partial-block, a real bug,
// tile-ai/tilelang #1534).
//
// One 512-thread block (16 warps, 4 warp groups) handles one row. Warp group 0 (threads
// 0..127) owns the row's 128 logits and needs their sum; warp groups 1-3 (threads
// 128..511) meanwhile stage the row's 384 values in shared memory. The sum is computed with
// a TileLang-style AllReduce<SumOp, 128>: an XOR butterfly whose steps with offset >= 32
// go through shared memory between two barriers, and whose steps below 32 use shfl.xor.
// The barrier is a policy parameter, as in TileLang's tl::AllReduce:
//
//   SyncThreadsBarrier   __syncthreads()       bar.sync 0        the whole CTA (512)
//   NamedBarrier<128>    bar.sync 1/2, 128                       the 128 reducing threads
//
// The reduction runs inside `if (tid < 128)` and uses NamedBarrier<128>: `bar.sync 1, 128`
// and `bar.sync 2, 128` count the 4 warps of warp group 0 and nobody else, so the other 12
// warps are neither waited for nor counted. Barrier 0 is used only by the block-wide
// __syncthreads() after the `if`, which every thread of the CTA reaches through the same
// instruction, as `.aligned` requires (PTX ISA 9.7.13.1); it orders the writes of row_sum
// and staged before the reads.
//
// The buggy twin used SyncThreadsBarrier, which is what TileLang's `run` does on a
// non-Hopper target; TileLang's `run_hopper` uses NamedBarrier with the reducing thread
// count.
//
// Launch: grid 1, block 512, in = 0,1,...,511, out = 512 ints.

#define THREADS 512
#define ROW 128                          // logits per row: warp group 0, one per thread

struct SumOp {
    __device__ int operator()(int a, int b) const { return a + b; }
};

// TileLang barrier policies.
struct SyncThreadsBarrier {
    template <int id> static __device__ void sync() { __syncthreads(); }
};
template <int num_threads> struct NamedBarrier {
    template <int id> static __device__ void sync()
    {
        asm volatile("bar.sync %0, %1;" :: "n"(id), "n"(num_threads) : "memory");
    }
};

// tl::AllReduce<Reducer, threads, scale = 1>: every one of `threads` threads gets the total.
template <class Reducer, int threads, class Barrier> struct AllReduce {
    static __device__ int run(int x, int *red_buf)
    {
        constexpr int offset = threads / 2;
        if constexpr (offset >= 32) {
            Barrier::template sync<1>();         // red_buf is free
            red_buf[threadIdx.x] = x;
            Barrier::template sync<2>();         // every partner has written
            x = Reducer()(x, red_buf[threadIdx.x ^ offset]);
        } else {
            x = Reducer()(x, __shfl_xor_sync(0xffffffffu, x, offset));
        }
        if constexpr (offset == 1)
            return x;
        else
            return AllReduce<Reducer, offset, Barrier>::run(x, red_buf);
    }
};

extern "C" __global__ void __launch_bounds__(THREADS) row_reduce(const int *in, int *out)
{
    __shared__ int red_buf[ROW];
    __shared__ int staged[THREADS - ROW];
    __shared__ int row_sum;

    unsigned tid = threadIdx.x;
    int x = in[tid];

    if (tid < ROW) {
        // warp group 0: the row's logits
        int s = AllReduce<SumOp, ROW, NamedBarrier<ROW>>::run(x, red_buf);   // bar.sync 1/2, 128
        if (tid == 0)
            row_sum = s;
    } else {
        // warp groups 1-3: stage the row's values
        staged[tid - ROW] = x * 2;
    }
    __syncthreads();                             // row_sum and staged are complete

    if (tid < ROW)
        out[tid] = x * ROW - row_sum;            // logits, centred (times ROW)
    else
        out[tid] = staged[tid - ROW] + row_sum;
}
