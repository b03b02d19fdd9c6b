// A 2-CTA cluster launched with cudaLaunchKernelEx and a cluster-dimension attribute: each CTA
// reads its partner's shared memory (DSMEM) after a cluster barrier. Then the same through the
// driver: cudaGetFuncBySymbol and cuLaunchKernelEx from cudaGetDriverEntryPoint.
#include <cstdio>
#include <cooperative_groups.h>
#include <cuda.h>
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
    // Again through the driver's launch, into a cleared buffer.
    CHECK(cudaMemset(out, 0, 4 * 64 * sizeof(int)));
    cudaFunction_t fn;
    CHECK(cudaGetFuncBySymbol(&fn, (const void *) exchange));
    void *launch = nullptr;
    cudaDriverEntryPointQueryResult q;
    CHECK(cudaGetDriverEntryPoint("cuLaunchKernelEx", &launch, cudaEnableDefault, &q));
    CUlaunchAttribute cattr[1];
    cattr[0].id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    cattr[0].value.clusterDim.x = 2;
    cattr[0].value.clusterDim.y = 1;
    cattr[0].value.clusterDim.z = 1;
    CUlaunchConfig cc = {};
    cc.gridDimX = 4; cc.gridDimY = 1; cc.gridDimZ = 1;
    cc.blockDimX = 64; cc.blockDimY = 1; cc.blockDimZ = 1;
    cc.attrs = cattr;
    cc.numAttrs = 1;
    void *params[] = {&out};
    typedef CUresult (*LaunchEx)(const CUlaunchConfig *, CUfunction, void **, void **);
    CUresult r = ((LaunchEx) launch)(&cc, (CUfunction) fn, params, nullptr);
    if (r != CUDA_SUCCESS) { printf("FAIL cuLaunchKernelEx: %d\n", (int) r); return 1; }
    CHECK(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
    for (int b = 0; b < 4; b++)
        for (int t = 0; t < 64; t++)
            if (h[b * 64 + t] != (int) (((b % 2) ^ 1) * 1000 + t)) { printf("FAIL (driver) out[%d][%d] = %d\n", b, t, h[b * 64 + t]); return 1; }
    printf("PASS cluster_launch\n");
    return 0;
}
