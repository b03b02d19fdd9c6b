// A 2-CTA cluster launched with cudaLaunchKernelEx and a cluster-dimension attribute: each CTA
// reads its partner's shared memory (DSMEM) after a cluster barrier.
#include <cstdio>
#include <cooperative_groups.h>
#include <cuda_runtime.h>
namespace cg = cooperative_groups;

__global__ void exchange(int *out) {
    __shared__ int mine[64];
    cg::cluster_group cluster = cg::this_cluster();
    unsigned rank = cluster.block_rank();
    mine[threadIdx.x] = (int) (rank * 1000 + threadIdx.x);
    cluster.sync();
    int *theirs = cluster.map_shared_rank(mine, rank ^ 1);
    out[blockIdx.x * 64 + threadIdx.x] = theirs[threadIdx.x];
    cluster.sync();
}

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
    printf("FAIL %s: %s\n", #x, cudaGetErrorString(e)); return 1; } } while (0)

int main() {
    int *out;
    CHECK(cudaMalloc(&out, 4 * 64 * sizeof(int)));
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3(4);
    config.blockDim = dim3(64);
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeClusterDimension;
    attr[0].val.clusterDim.x = 2;
    attr[0].val.clusterDim.y = 1;
    attr[0].val.clusterDim.z = 1;
    config.attrs = attr;
    config.numAttrs = 1;
    CHECK(cudaLaunchKernelEx(&config, exchange, out));
    int h[4 * 64];
    CHECK(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
    for (int b = 0; b < 4; b++)
        for (int t = 0; t < 64; t++) {
            int want = (int) (((b % 2) ^ 1) * 1000 + t);
            if (h[b * 64 + t] != want) { printf("FAIL out[%d][%d] = %d, want %d\n", b, t, h[b * 64 + t], want); return 1; }
        }
    printf("PASS cluster_launch\n");
    return 0;
}
