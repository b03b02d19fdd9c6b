// "Blocks as Clusters" (CUDA Programming Guide: __block_size__ with a second tuple): "the compiler
// would recognize the first argument inside <<<>>> as the number of clusters instead of thread
// blocks". nvcc marks the entry .blocksareclusters and passes the launch's grid unchanged, so the
// launch must run grid x cluster blocks: <<<3, 64>>> of a kernel with clusters of 2 is 6 blocks
// in 3 clusters, each block seeing its rank in its cluster and its cluster's index.
#include <cooperative_groups.h>
#include <cstdio>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

__global__ void __block_size__((64, 1, 1), (2, 1, 1)) pairs(int *seen) {
    cg::cluster_group cluster = cg::this_cluster();
    __shared__ int mine;
    if (threadIdx.x == 0) mine = blockIdx.x;
    cluster.sync();
    if (threadIdx.x == 0) {
        int *peer = cluster.map_shared_rank(&mine, cluster.block_rank() ^ 1);
        seen[blockIdx.x] = 1000 * (int) (blockIdx.x / 2) + 100 * (int) cluster.block_rank() + *peer;
    }
    cluster.sync();
}

int main() {
    int *d, h[8];
    if (cudaMalloc(&d, sizeof h) != cudaSuccess || cudaMemset(d, 0xff, sizeof h) != cudaSuccess) return 1;
    pairs<<<3, 64>>>(d);
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) { printf("FAIL launch: %s\n", cudaGetErrorName(e)); return 1; }
    if (cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost) != cudaSuccess) return 1;
    for (int b = 0; b < 6; b++) {
        int want = 1000 * (b / 2) + 100 * (b % 2) + (b ^ 1);
        if (h[b] != want) { printf("FAIL block %d: %d, want %d\n", b, h[b], want); return 1; }
    }
    if (h[6] != -1) { printf("FAIL a seventh block ran\n"); return 1; }
    printf("PASS blocks_as_clusters 6 blocks in 3 clusters\n");
    return 0;
}
