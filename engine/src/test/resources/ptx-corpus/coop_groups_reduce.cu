// Corpus: cooperative groups. this_thread_block().sync() (barrier.sync 0: non-.aligned),
// tiled_partition<32> with cg::reduce (shfl / redux.sync), thread_rank, meta_group_rank.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

extern "C" __global__ void cg_block_sum(const int *in, int *out, unsigned *max_out, int n)
{
    __shared__ int warp_sums[32];
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);

    int i = blockIdx.x * blockDim.x + block.thread_rank();
    int v = (i < n) ? in[i] : 0;

    int wsum = cg::reduce(warp, v, cg::plus<int>());                // warp-level sum
    unsigned wmax = cg::reduce(warp, (unsigned)v, cg::greater<unsigned>());
    if (warp.thread_rank() == 0) {
        warp_sums[warp.meta_group_rank()] = wsum;
        atomicMax(max_out, wmax);
    }
    block.sync();

    if (warp.meta_group_rank() == 0) {
        int s = (warp.thread_rank() < warp.meta_group_size()) ? warp_sums[warp.thread_rank()] : 0;
        // a manual shuffle tree on the tile object, for comparison with cg::reduce
        for (int off = warp.size() / 2; off > 0; off /= 2)
            s += warp.shfl_down(s, off);
        if (warp.thread_rank() == 0)
            out[blockIdx.x] = s;
    }
    warp.sync();
}
