// Cooperative launches with cooperative groups' grid-wide barrier, as cuda-samples'
// reductionMultiBlockCG uses it: every block writes its partial sum, grid.sync(), block 0 adds
// them; then several grid.sync() rounds in one launch (a ring shift), launched again (the
// workspace is reused), and through cudaLaunchKernelEx with cudaLaunchAttributeCooperative.
#include <cstdio>
#include <cooperative_groups.h>
#include <cuda_runtime.h>
namespace cg = cooperative_groups;

__global__ void reduce(const int *in, int *partial, int *total, int n) {
    cg::grid_group grid = cg::this_grid();
    cg::thread_block block = cg::this_thread_block();
    __shared__ int sum;
    if (block.thread_rank() == 0) sum = 0;
    block.sync();
    for (int i = grid.thread_rank(); i < n; i += grid.size()) atomicAdd(&sum, in[i]);
    block.sync();
    if (block.thread_rank() == 0) partial[blockIdx.x] = sum;
    grid.sync();
    if (grid.thread_rank() == 0) {
        int t = 0;
        for (int b = 0; b < gridDim.x; b++) t += partial[b];
        *total = t;
    }
}

// Each round every thread reads its right neighbour's value of the last round.
__global__ void ring(int *a, int *b, int rounds) {
    cg::grid_group grid = cg::this_grid();
    unsigned long long i = grid.thread_rank(), n = grid.size();
    for (int r = 0; r < rounds; r++) {
        b[i] = a[(i + 1) % n];
        grid.sync();
        a[i] = b[i];
        grid.sync();
    }
}

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
    printf("FAIL %s: %s\n", #x, cudaGetErrorString(e)); return 1; } } while (0)
#define EXPECT(c) do { if (!(c)) { printf("FAIL line %d: %s\n", __LINE__, #c); return 1; } } while (0)

int main() {
    int supported = 0;
    CHECK(cudaDeviceGetAttribute(&supported, cudaDevAttrCooperativeLaunch, 0));
    EXPECT(supported == 1);
    const int n = 5000, blocks = 8, threads = 128, total_threads = blocks * threads;
    int host[n], *in, *partial, *total, *a, *b;
    long expect = 0;
    for (int i = 0; i < n; i++) { host[i] = (i * 7) % 13; expect += host[i]; }
    CHECK(cudaMalloc(&in, n * sizeof(int)));
    CHECK(cudaMalloc(&partial, blocks * sizeof(int)));
    CHECK(cudaMalloc(&total, sizeof(int)));
    CHECK(cudaMemcpy(in, host, n * sizeof(int), cudaMemcpyHostToDevice));
    int count = n;
    void *args[] = {&in, &partial, &total, &count};
    int got = 0;
    for (int k = 0; k < 2; k++) {
        CHECK(cudaMemset(total, 0, sizeof(int)));
        CHECK(cudaLaunchCooperativeKernel((void *) reduce, dim3(blocks), dim3(threads), args, 0, 0));
        CHECK(cudaDeviceSynchronize());
        CHECK(cudaMemcpy(&got, total, sizeof(int), cudaMemcpyDeviceToHost));
        EXPECT(got == expect);
    }

    CHECK(cudaMalloc(&a, total_threads * sizeof(int)));
    CHECK(cudaMalloc(&b, total_threads * sizeof(int)));
    int ids[total_threads];
    for (int i = 0; i < total_threads; i++) ids[i] = i;
    CHECK(cudaMemcpy(a, ids, sizeof ids, cudaMemcpyHostToDevice));
    int rounds = 3;
    void *args2[] = {&a, &b, &rounds};
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3(blocks);
    config.blockDim = dim3(threads);
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeCooperative;
    attr[0].val.cooperative = 1;
    config.attrs = attr;
    config.numAttrs = 1;
    CHECK(cudaLaunchKernelEx(&config, ring, a, b, rounds));
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(ids, a, sizeof ids, cudaMemcpyDeviceToHost));
    for (int i = 0; i < total_threads; i++) EXPECT(ids[i] == (i + rounds) % total_threads);

    // A graph kernel node with cudaLaunchAttributeCooperative launches as a cooperative one; the
    // attribute reads back, and survives new kernel parameters.
    for (int i = 0; i < total_threads; i++) ids[i] = i;
    CHECK(cudaMemcpy(a, ids, sizeof ids, cudaMemcpyHostToDevice));
    cudaGraph_t graph;
    cudaGraphNode_t node;
    cudaGraphExec_t exec;
    CHECK(cudaGraphCreate(&graph, 0));
    cudaKernelNodeParams kp = {};
    kp.func = (void *) ring;
    kp.gridDim = dim3(blocks);
    kp.blockDim = dim3(threads);
    kp.kernelParams = args2;
    CHECK(cudaGraphAddKernelNode(&node, graph, nullptr, 0, &kp));
    cudaKernelNodeAttrValue coop = {};
    CHECK(cudaGraphKernelNodeGetAttribute(node, cudaLaunchAttributeCooperative, &coop));
    EXPECT(coop.cooperative == 0);
    coop.cooperative = 1;
    CHECK(cudaGraphKernelNodeSetAttribute(node, cudaLaunchAttributeCooperative, &coop));
    CHECK(cudaGraphKernelNodeSetParams(node, &kp));
    coop.cooperative = 0;
    CHECK(cudaGraphKernelNodeGetAttribute(node, cudaLaunchAttributeCooperative, &coop));
    EXPECT(coop.cooperative == 1);
    CHECK(cudaGraphInstantiate(&exec, graph, 0));
    CHECK(cudaGraphLaunch(exec, 0));
    CHECK(cudaStreamSynchronize(0));
    CHECK(cudaMemcpy(ids, a, sizeof ids, cudaMemcpyDeviceToHost));
    for (int i = 0; i < total_threads; i++) EXPECT(ids[i] == (i + rounds) % total_threads);
    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(graph));

    // A grid larger than can be resident at once (blocks per multiprocessor x multiprocessors) is
    // refused, as cudaLaunchCooperativeKernel documents; the error is not sticky.
    int per_sm = 0, sms = 0;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, ring, threads, 0));
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    EXPECT(per_sm > 0);
    EXPECT(cudaLaunchCooperativeKernel((void *) ring, dim3(per_sm * sms + 1), dim3(threads), args2, 0, 0)
           == cudaErrorCooperativeLaunchTooLarge);
    EXPECT(cudaGetLastError() == cudaErrorCooperativeLaunchTooLarge);
    config.gridDim = dim3(per_sm * sms + 1);
    EXPECT(cudaLaunchKernelEx(&config, ring, a, b, rounds) == cudaErrorCooperativeLaunchTooLarge);
    cudaGetLastError();
    CHECK(cudaDeviceSynchronize());
    printf("PASS cooperative\n");
    return 0;
}
