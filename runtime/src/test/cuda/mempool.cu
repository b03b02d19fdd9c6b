// Stream-ordered memory: cudaMallocAsync from the device's default pool, its release threshold,
// what the pool counts (used and reserved bytes, high watermarks and their reset), a pool the
// program makes with cudaMemPoolCreate and allocates from with cudaMallocFromPoolAsync, graph
// memory nodes made by capturing cudaMallocAsync/cudaFreeAsync, and the errors the attributes'
// documentation gives.
#include <cstdint>
#include <cstdio>
#include <cuda_runtime.h>

__global__ void iota(int *p, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = i * 3;
}

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("FAIL line %d: %s: %s\n", __LINE__, #x, cudaGetErrorName(e_)); return 1; } } while (0)
#define EXPECT(c, ...) do { if (!(c)) { printf("FAIL line %d: ", __LINE__); printf(__VA_ARGS__); printf("\n"); return 1; } } while (0)

static uint64_t attr(cudaMemPool_t pool, cudaMemPoolAttr a) {
    uint64_t v = ~0ull;
    if (cudaMemPoolGetAttribute(pool, a, &v) != cudaSuccess) return ~0ull;
    return v;
}

int main() {
    int supported = 0;
    CHECK(cudaDeviceGetAttribute(&supported, cudaDevAttrMemoryPoolsSupported, 0));
    EXPECT(supported == 1, "MemoryPoolsSupported %d", supported);
    cudaMemPool_t pool, current;
    CHECK(cudaDeviceGetDefaultMemPool(&pool, 0));
    CHECK(cudaDeviceGetMemPool(&current, 0));
    EXPECT(pool == current, "the current pool is not the default one");
    uint64_t threshold = UINT64_MAX;
    CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold));
    EXPECT(attr(pool, cudaMemPoolAttrReleaseThreshold) == UINT64_MAX, "threshold not kept");
    int reuse = 0;
    CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolReuseAllowOpportunistic, &reuse));
    reuse = 7;
    CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolReuseAllowOpportunistic, &reuse));
    EXPECT(reuse == 0, "reuse attribute %d", reuse);

    cudaStream_t s;
    CHECK(cudaStreamCreate(&s));
    const int n = 200;
    int *a, *b;
    CHECK(cudaMallocAsync(&a, n * sizeof(int), s));
    CHECK(cudaMallocAsync(&b, 1000, s));
    EXPECT(attr(pool, cudaMemPoolAttrUsedMemCurrent) == n * sizeof(int) + 1000, "used %llu",
           (unsigned long long) attr(pool, cudaMemPoolAttrUsedMemCurrent));
    iota<<<2, 128, 0, s>>>(a, n);
    static int h[n];
    CHECK(cudaMemcpyAsync(h, a, sizeof h, cudaMemcpyDeviceToHost, s));
    CHECK(cudaFreeAsync(b, s));
    CHECK(cudaStreamSynchronize(s));
    for (int i = 0; i < n; i++) EXPECT(h[i] == 3 * i, "h[%d] = %d", i, h[i]);
    EXPECT(attr(pool, cudaMemPoolAttrUsedMemCurrent) == n * sizeof(int), "used after a free");
    EXPECT(attr(pool, cudaMemPoolAttrUsedMemHigh) == n * sizeof(int) + 1000, "used high");
    EXPECT(attr(pool, cudaMemPoolAttrReservedMemCurrent) == n * sizeof(int), "reserved (freed bytes go back at once)");
    uint64_t zero = 0;
    CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &zero)); // a reset, to the current amount
    EXPECT(attr(pool, cudaMemPoolAttrUsedMemHigh) == n * sizeof(int), "used high after a reset");
    CHECK(cudaFree(a)); // memory from cudaMallocAsync may be freed by cudaFree too
    EXPECT(attr(pool, cudaMemPoolAttrUsedMemCurrent) == 0, "used after cudaFree");

    // A pool of the program's own.
    cudaMemPoolProps props = {};
    props.allocType = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = 0;
    cudaMemPool_t mine;
    CHECK(cudaMemPoolCreate(&mine, &props));
    int *c;
    CHECK(cudaMallocFromPoolAsync(&c, 64, mine, s));
    EXPECT(attr(mine, cudaMemPoolAttrUsedMemCurrent) == 64 && attr(pool, cudaMemPoolAttrUsedMemCurrent) == 0, "per-pool counts");
    CHECK(cudaMemsetAsync(c, 0x7F, 64, s));
    unsigned char back[64];
    CHECK(cudaMemcpyAsync(back, c, 64, cudaMemcpyDeviceToHost, s));
    CHECK(cudaStreamSynchronize(s));
    for (int i = 0; i < 64; i++) EXPECT(back[i] == 0x7F, "back[%d] = %d", i, back[i]);
    CHECK(cudaFreeAsync(c, s));
    CHECK(cudaMemPoolTrimTo(mine, 0));
    CHECK(cudaDeviceSetMemPool(0, mine));
    CHECK(cudaDeviceGetMemPool(&current, 0));
    EXPECT(current == mine, "cudaDeviceSetMemPool did not take");
    CHECK(cudaMallocAsync(&c, 32, s)); // from the current pool, now the program's
    EXPECT(attr(mine, cudaMemPoolAttrUsedMemCurrent) == 32, "cudaMallocAsync used another pool");
    CHECK(cudaFreeAsync(c, s));
    CHECK(cudaDeviceSetMemPool(0, pool));
    CHECK(cudaMemPoolDestroy(mine));

    // A capture that allocates: memory nodes. The graph owns the memory at a fixed address; a
    // launch allocates it at its alloc node and frees it at its free node.
    size_t free_before, free_after, total;
    CHECK(cudaMemGetInfo(&free_before, &total));
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    int *t, *keep;
    CHECK(cudaMallocAsync(&t, n * sizeof(int), s));
    iota<<<2, 128, 0, s>>>(t, n);
    CHECK(cudaMemcpyAsync(h, t, sizeof h, cudaMemcpyDeviceToHost, s));
    CHECK(cudaFreeAsync(t, s));
    CHECK(cudaMallocAsync(&keep, 16, s)); // not freed by the graph
    CHECK(cudaMemsetAsync(keep, 1, 16, s));
    cudaGraph_t g;
    CHECK(cudaStreamEndCapture(s, &g));
    cudaGraphNode_t first;
    size_t count = 1;
    CHECK(cudaGraphGetNodes(g, &first, &count));
    cudaGraphNodeType type;
    CHECK(cudaGraphNodeGetType(first, &type));
    EXPECT(type == cudaGraphNodeTypeMemAlloc, "first node type %d", (int) type);
    cudaGraphExec_t x;
    CHECK(cudaGraphInstantiate(&x, g, 0));
    for (int i = 0; i < n; i++) h[i] = -1;
    CHECK(cudaGraphLaunch(x, s));
    for (int i = 0; i < n; i++) EXPECT(h[i] == 3 * i, "graph: h[%d] = %d", i, h[i]);
    cudaError_t again = cudaGraphLaunch(x, s); // keep is still allocated from the first launch
    cudaGetLastError();
    EXPECT(again == cudaErrorInvalidValue, "relaunch with an unfreed graph allocation: %s", cudaGetErrorName(again));
    CHECK(cudaFree(keep));
    CHECK(cudaGraphLaunch(x, s));
    CHECK(cudaFreeAsync(keep, s));
    cudaError_t twice = cudaFree(keep);
    cudaGetLastError();
    EXPECT(twice == cudaErrorInvalidValue, "freeing a graph allocation that is not allocated: %s", cudaGetErrorName(twice));
    cudaGraphExec_t autofree;
    cudaError_t second = cudaGraphInstantiate(&autofree, g, 0);
    cudaGetLastError();
    EXPECT(second == cudaErrorInvalidValue, "a second executable graph of a graph with memory nodes: %s", cudaGetErrorName(second));
    cudaGraph_t copy;
    second = cudaGraphClone(&copy, g);
    cudaGetLastError();
    EXPECT(second == cudaErrorInvalidValue, "cloning a graph with memory nodes: %s", cudaGetErrorName(second));
    CHECK(cudaGraphExecDestroy(x));
    CHECK(cudaGraphInstantiateWithFlags(&autofree, g, cudaGraphInstantiateFlagAutoFreeOnLaunch));
    CHECK(cudaGraphLaunch(autofree, s));
    CHECK(cudaGraphLaunch(autofree, s));
    uint64_t graph_used = 0;
    CHECK(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &graph_used));
    EXPECT(graph_used == n * sizeof(int) + 16, "graph memory %llu", (unsigned long long) graph_used);
    CHECK(cudaGraphExecDestroy(autofree));
    CHECK(cudaGraphDestroy(g));
    CHECK(cudaFree(keep)); // the last launch allocated it: it outlives its graph until freed
    CHECK(cudaMemGetInfo(&free_after, &total));
    CHECK(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &graph_used));
    EXPECT(graph_used == 0, "graph memory after all is given back: %llu", (unsigned long long) graph_used);

    // Memory nodes made by hand: a kernel between an alloc node and a free node.
    CHECK(cudaGraphCreate(&g, 0));
    cudaMemAllocNodeParams ap = {};
    ap.poolProps.allocType = cudaMemAllocationTypePinned;
    ap.poolProps.location.type = cudaMemLocationTypeDevice;
    ap.poolProps.location.id = 0;
    ap.bytesize = n * sizeof(int);
    cudaGraphNode_t alloc, fill, copy_back, release;
    CHECK(cudaGraphAddMemAllocNode(&alloc, g, nullptr, 0, &ap));
    EXPECT(ap.dptr != nullptr, "no address from cudaGraphAddMemAllocNode");
    int *m = (int *) ap.dptr;
    int len = n;
    void *args[] = {&m, &len};
    cudaKernelNodeParams kp = {};
    kp.func = (void *) iota; kp.gridDim = dim3(2); kp.blockDim = dim3(128); kp.kernelParams = args;
    CHECK(cudaGraphAddKernelNode(&fill, g, &alloc, 1, &kp));
    CHECK(cudaGraphAddMemcpyNode1D(&copy_back, g, &fill, 1, h, m, sizeof h, cudaMemcpyDeviceToHost));
    CHECK(cudaGraphAddMemFreeNode(&release, g, &copy_back, 1, m));
    second = cudaGraphAddMemFreeNode(&release, g, nullptr, 0, h);
    cudaGetLastError();
    EXPECT(second == cudaErrorInvalidValue, "a free node of host memory: %s", cudaGetErrorName(second));
    CHECK(cudaGraphInstantiate(&x, g, 0));
    for (int round = 0; round < 2; round++) {
        for (int i = 0; i < n; i++) h[i] = -1;
        CHECK(cudaGraphLaunch(x, s)); // freed in the graph: it may launch again
        for (int i = 0; i < n; i++) EXPECT(h[i] == 3 * i, "hand-made memory nodes: h[%d] = %d", i, h[i]);
    }
    CHECK(cudaGraphExecDestroy(x));
    CHECK(cudaGraphDestroy(g));
    CHECK(cudaMemGetInfo(&free_after, &total));
    EXPECT(free_after == free_before, "hand-made graph memory not given back");
    EXPECT(free_after == free_before, "graph memory not given back: %zu bytes free before, %zu after", free_before, free_after);

    // Errors as documented.
    int fails = 0;
    uint64_t one = 1;
#define EXPECT_ERR(call, want) do { cudaError_t e_ = (call); cudaGetLastError(); if (e_ != (want)) { \
    printf("FAIL line %d: %s gave %s\n", __LINE__, #call, cudaGetErrorName(e_)); fails++; } } while (0)
    EXPECT_ERR(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &one), cudaErrorInvalidValue); // only a reset to 0
    EXPECT_ERR(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &zero), cudaErrorInvalidValue); // read-only
    EXPECT_ERR(cudaDeviceGetDefaultMemPool(&current, 1), cudaErrorInvalidDevice);
    EXPECT_ERR(cudaMallocAsync(nullptr, 16, s), cudaErrorInvalidValue);
    EXPECT_ERR(cudaMemPoolDestroy(pool), cudaErrorInvalidValue); // the default pool
    props.location.id = 3;
    EXPECT_ERR(cudaMemPoolCreate(&mine, &props), cudaErrorInvalidValue);
    CHECK(cudaStreamDestroy(s));
    printf(fails ? "FAIL mempool\n" : "PASS mempool\n");
    return fails ? 1 : 0;
}
