// Host code of the kind an application's test suite exercises around its kernels, each call
// checked (CUDA_CHECK) and each result compared with the host's: a graph built node by node
// (kernel, memset, memcpy, host nodes with edges) instantiated with flags, relaunched after
// cudaGraphExecKernelNodeSetParams, written out with cudaGraphDebugDotPrint; two streams ordered
// by an event; pitched 2D and 3D copies and memsets on a stream; stream-ordered allocation from
// the default pool; a cooperative launch; cudaFuncGetParamInfo; the peer queries of a one-GPU box.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <cooperative_groups.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

#define CUDA_CHECK(call) do { cudaError_t err_ = (call); if (err_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s failed: %s (%s)\n", __FILE__, __LINE__, #call, cudaGetErrorString(err_), cudaGetErrorName(err_)); \
    exit(1); } } while (0)
#define CUDA_CHECK_LAST() CUDA_CHECK(cudaPeekAtLastError())
#define EXPECT(c) do { if (!(c)) { printf("FAIL line %d: %s\n", __LINE__, #c); failures++; } } while (0)
static int failures = 0;

struct Tag { char c[3]; };

__global__ void axpb(float *x, float a, double b, Tag t, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = a * x[i] + (float) b + t.c[0];
}

__global__ void produce(int *buf, int n, int v) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) buf[i] = v + i;
}

__global__ void consume(const int *buf, int n, unsigned long long *sum) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) atomicAdd(sum, (unsigned long long) buf[i]);
}

__global__ void grid_sum(const int *in, int n, int *partial, int *out) {
    cg::grid_group grid = cg::this_grid();
    int s = 0;
    for (int i = grid.thread_rank(); i < n; i += grid.size()) s += in[i];
    atomicAdd(&partial[blockIdx.x], s);
    grid.sync();
    if (grid.thread_rank() == 0) {
        int t = 0;
        for (int b = 0; b < gridDim.x; b++) t += partial[b];
        *out = t;
    }
}

__global__ void add_3d(cudaPitchedPtr p, int w, int h, int d) {
    int x = threadIdx.x, y = threadIdx.y, z = blockIdx.x;
    if (x < w && y < h && z < d) {
        char *slice = (char *) p.ptr + (size_t) z * p.pitch * p.ysize;
        ((int *) (slice + y * p.pitch))[x] += 1000 * z + 10 * y + x;
    }
}

static void CUDART_CB bump(void *p) { ++*(int *) p; }

static void handBuiltGraph() {
    const int n = 256;
    float *x = nullptr, *h = nullptr;
    CUDA_CHECK(cudaMalloc(&x, n * sizeof(float)));
    CUDA_CHECK(cudaMallocHost(&h, n * sizeof(float)));
    cudaGraph_t g;
    CUDA_CHECK(cudaGraphCreate(&g, 0));
    cudaGraphNode_t set, kern, copy, host;
    cudaMemsetParams mp = {};
    mp.dst = x;
    mp.value = 0;
    mp.elementSize = 4;
    mp.width = n;
    mp.height = 1;
    CUDA_CHECK(cudaGraphAddMemsetNode(&set, g, nullptr, 0, &mp));
    float a = 2.0f;
    double b = 1.5;
    Tag t = {{3, 0, 0}};
    int count = n;
    void *args[] = {&x, &a, &b, &t, &count};
    cudaKernelNodeParams kp = {};
    kp.func = (void *) axpb;
    kp.gridDim = dim3(n / 64);
    kp.blockDim = dim3(64);
    kp.kernelParams = args;
    CUDA_CHECK(cudaGraphAddKernelNode(&kern, g, &set, 1, &kp));
    CUDA_CHECK(cudaGraphAddMemcpyNode1D(&copy, g, &kern, 1, h, x, n * sizeof(float), cudaMemcpyDeviceToHost));
    int calls = 0;
    cudaHostNodeParams hp = {bump, &calls};
    CUDA_CHECK(cudaGraphAddHostNode(&host, g, &copy, 1, &hp));
    size_t edges = 0;
    CUDA_CHECK(cudaGraphGetEdges(g, nullptr, nullptr, nullptr, &edges));
    EXPECT(edges == 3);

    const char *dot = "streams_graphs_tour.dot";
    CUDA_CHECK(cudaGraphDebugDotPrint(g, dot, cudaGraphDebugDotFlagsVerbose));
    FILE *f = fopen(dot, "r");
    EXPECT(f != nullptr);
    if (f) {
        char text[4096] = {0};
        size_t len = fread(text, 1, sizeof text - 1, f);
        fclose(f);
        EXPECT(len > 0 && strncmp(text, "digraph", 7) == 0);
        EXPECT(strstr(text, "axpb") != nullptr);
        remove(dot);
    }
    EXPECT(cudaGraphDebugDotPrint(g, "/nonexistent-dir/x.dot", 0) == cudaErrorOperatingSystem);
    EXPECT(cudaGetLastError() == cudaErrorOperatingSystem);

    cudaGraphExec_t exec;
    CUDA_CHECK(cudaGraphInstantiateWithFlags(&exec, g, cudaGraphInstantiateFlagAutoFreeOnLaunch));
    cudaStream_t s;
    CUDA_CHECK(cudaStreamCreate(&s));
    CUDA_CHECK(cudaGraphLaunch(exec, s));
    CUDA_CHECK(cudaStreamSynchronize(s));
    for (int i = 0; i < n; i++) EXPECT(h[i] == 4.5f || (printf("at %d: %f\n", i, h[i]), false));
    a = 0.0f;  // kernelParams are copied when the node is made: the graph still has 2
    b = 7.0;
    CUDA_CHECK(cudaGraphExecKernelNodeSetParams(exec, kern, &kp));  // now it takes b = 7, a = 0
    CUDA_CHECK(cudaGraphLaunch(exec, s));
    CUDA_CHECK(cudaStreamSynchronize(s));
    EXPECT(h[0] == 10.0f);
    EXPECT(calls == 2);
    CUDA_CHECK(cudaGraphExecDestroy(exec));
    CUDA_CHECK(cudaGraphDestroy(g));
    CUDA_CHECK(cudaStreamDestroy(s));
    CUDA_CHECK(cudaFree(x));
    CUDA_CHECK(cudaFreeHost(h));
}

static void paramInfo() {
    size_t off = 99, size = 99;
    CUDA_CHECK(cudaFuncGetParamInfo((const void *) axpb, 0, &off, &size));
    EXPECT(off == 0 && size == 8);
    CUDA_CHECK(cudaFuncGetParamInfo((const void *) axpb, 1, &off, &size));
    EXPECT(off == 8 && size == 4);
    CUDA_CHECK(cudaFuncGetParamInfo((const void *) axpb, 2, &off, &size));
    EXPECT(off == 16 && size == 8);
    CUDA_CHECK(cudaFuncGetParamInfo((const void *) axpb, 3, &off, &size));
    EXPECT(off == 24 && size == 3);
    CUDA_CHECK(cudaFuncGetParamInfo((const void *) axpb, 4, &off, &size));
    EXPECT(off == 28 && size == 4);
    EXPECT(cudaFuncGetParamInfo((const void *) axpb, 5, &off, &size) == cudaErrorInvalidValue);
    EXPECT(cudaGetLastError() == cudaErrorInvalidValue);
}

static void twoStreamsAndAPool() {
    const int n = 4096;
    cudaStream_t producer, consumer;
    CUDA_CHECK(cudaStreamCreateWithFlags(&producer, cudaStreamNonBlocking));
    CUDA_CHECK(cudaStreamCreateWithPriority(&consumer, cudaStreamNonBlocking, -1));
    cudaMemPool_t pool;
    CUDA_CHECK(cudaDeviceGetDefaultMemPool(&pool, 0));
    unsigned long long threshold = ~0ull;
    CUDA_CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold));
    int *buf = nullptr;
    unsigned long long *sum = nullptr;
    CUDA_CHECK(cudaMallocAsync(&buf, n * sizeof(int), producer));
    CUDA_CHECK(cudaMallocAsync(&sum, sizeof *sum, producer));
    CUDA_CHECK(cudaMemsetAsync(sum, 0, sizeof *sum, producer));
    cudaEvent_t ready, t0, t1;
    CUDA_CHECK(cudaEventCreateWithFlags(&ready, cudaEventDisableTiming));
    CUDA_CHECK(cudaEventCreate(&t0));
    CUDA_CHECK(cudaEventCreate(&t1));
    CUDA_CHECK(cudaEventRecord(t0, producer));
    produce<<<4, 128, 0, producer>>>(buf, n, 5);
    CUDA_CHECK_LAST();
    CUDA_CHECK(cudaEventRecordWithFlags(ready, producer, cudaEventRecordDefault));
    CUDA_CHECK(cudaStreamWaitEvent(consumer, ready, 0));
    consume<<<4, 128, 0, consumer>>>(buf, n, sum);
    CUDA_CHECK_LAST();
    CUDA_CHECK(cudaEventRecord(t1, consumer));
    unsigned long long got = 0;
    CUDA_CHECK(cudaMemcpyAsync(&got, sum, sizeof got, cudaMemcpyDefault, consumer));
    CUDA_CHECK(cudaFreeAsync(buf, consumer));
    CUDA_CHECK(cudaFreeAsync(sum, consumer));
    CUDA_CHECK(cudaStreamSynchronize(consumer));
    EXPECT(got == (unsigned long long) n * 5 + (unsigned long long) n * (n - 1) / 2);
    float ms = 0;
    CUDA_CHECK(cudaEventElapsedTime(&ms, t0, t1));
    EXPECT(ms > 0);
    EXPECT(cudaEventElapsedTime(&ms, t0, ready) == cudaErrorInvalidResourceHandle);
    EXPECT(cudaGetLastError() == cudaErrorInvalidResourceHandle);
    unsigned long long used = 1;
    CUDA_CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used));
    EXPECT(used == 0);
    CUDA_CHECK(cudaMemPoolTrimTo(pool, 0));
    CUDA_CHECK(cudaEventDestroy(ready));
    CUDA_CHECK(cudaEventDestroy(t0));
    CUDA_CHECK(cudaEventDestroy(t1));
    CUDA_CHECK(cudaStreamDestroy(producer));
    CUDA_CHECK(cudaStreamDestroy(consumer));
}

static void pitchedCopies() {
    const int w = 12, h = 5, d = 3;
    cudaStream_t s;
    CUDA_CHECK(cudaStreamCreate(&s));
    cudaExtent ext = make_cudaExtent(w * sizeof(int), h, d);
    cudaPitchedPtr dev;
    CUDA_CHECK(cudaMalloc3D(&dev, ext));
    EXPECT(dev.pitch >= w * sizeof(int) && dev.pitch % 128 == 0);
    std::vector<int> host(w * h * d, 1), back(w * h * d, 0);
    CUDA_CHECK(cudaMemset3DAsync(dev, 0, ext, s));
    cudaMemcpy3DParms up = {};
    up.srcPtr = make_cudaPitchedPtr(host.data(), w * sizeof(int), w, h);
    up.dstPtr = dev;
    up.extent = ext;
    up.kind = cudaMemcpyHostToDevice;
    CUDA_CHECK(cudaMemcpy3DAsync(&up, s));
    add_3d<<<d, dim3(16, 8), 0, s>>>(dev, w, h, d);
    CUDA_CHECK_LAST();
    cudaMemcpy3DParms down = {};
    down.srcPtr = dev;
    down.dstPtr = make_cudaPitchedPtr(back.data(), w * sizeof(int), w, h);
    down.extent = ext;
    down.kind = cudaMemcpyDeviceToHost;
    CUDA_CHECK(cudaMemcpy3DAsync(&down, s));
    CUDA_CHECK(cudaStreamSynchronize(s));
    for (int z = 0; z < d; z++)
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) EXPECT(back[(z * h + y) * w + x] == 1 + 1000 * z + 10 * y + x || (printf("at %d,%d,%d\n", x, y, z), false));
    // 2D: a device-to-device copy between pitches, then a memset of a sub-rectangle.
    int *a = nullptr, *b = nullptr;
    size_t pa = 0, pb = 0;
    CUDA_CHECK(cudaMallocPitch(&a, &pa, w * sizeof(int), h));
    CUDA_CHECK(cudaMallocPitch(&b, &pb, 2 * w * sizeof(int), h));
    CUDA_CHECK(cudaMemcpy2DAsync(a, pa, host.data(), w * sizeof(int), w * sizeof(int), h, cudaMemcpyHostToDevice, s));
    CUDA_CHECK(cudaMemset2DAsync(b, pb, 0, 2 * w * sizeof(int), h, s));
    CUDA_CHECK(cudaMemcpy2DAsync(b, pb, a, pa, w * sizeof(int), h, cudaMemcpyDeviceToDevice, s));
    CUDA_CHECK(cudaMemset2DAsync((char *) b + 4 * sizeof(int), pb, 0xff, 2 * sizeof(int), 2, s));
    std::vector<int> rows(2 * w * h);
    CUDA_CHECK(cudaMemcpy2DAsync(rows.data(), 2 * w * sizeof(int), b, pb, 2 * w * sizeof(int), h, cudaMemcpyDeviceToHost, s));
    CUDA_CHECK(cudaStreamSynchronize(s));
    EXPECT(rows[0] == 1 && rows[3] == 1 && rows[4] == -1 && rows[5] == -1 && rows[6] == 1 && rows[w] == 0);
    EXPECT(rows[2 * w + 4] == -1 && rows[2 * 2 * w + 4] == 1);
    // A width wider than the pitch is refused before anything moves.
    EXPECT(cudaMemcpy2DAsync(a, pa, host.data(), w * sizeof(int), pa + 4, h, cudaMemcpyHostToDevice, s) == cudaErrorInvalidPitchValue);
    EXPECT(cudaGetLastError() == cudaErrorInvalidPitchValue);
    CUDA_CHECK(cudaFree(a));
    CUDA_CHECK(cudaFree(b));
    CUDA_CHECK(cudaFree(dev.ptr));
    CUDA_CHECK(cudaStreamDestroy(s));
}

static void cooperative() {
    int coop = 0;
    CUDA_CHECK(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, 0));
    EXPECT(coop == 1);
    const int n = 3000, blocks = 6, threads = 64;
    int per_sm = 0;
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, grid_sum, threads, 0));
    EXPECT(per_sm * 132 >= blocks);
    std::vector<int> h(n);
    int expect = 0;
    for (int i = 0; i < n; i++) { h[i] = i % 17; expect += h[i]; }
    int *in, *partial, *out;
    CUDA_CHECK(cudaMalloc(&in, n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&partial, blocks * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&out, sizeof(int)));
    CUDA_CHECK(cudaMemcpy(in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(partial, 0, blocks * sizeof(int)));
    int count = n;
    void *args[] = {&in, &count, &partial, &out};
    CUDA_CHECK(cudaLaunchCooperativeKernel((void *) grid_sum, dim3(blocks), dim3(threads), args, 0, 0));
    int got = 0;
    CUDA_CHECK(cudaMemcpy(&got, out, sizeof got, cudaMemcpyDeviceToHost));
    EXPECT(got == expect);
    CUDA_CHECK(cudaFree(in));
    CUDA_CHECK(cudaFree(partial));
    CUDA_CHECK(cudaFree(out));
}

static void peers() {
    int count = 0, can = 1, v = 7;
    CUDA_CHECK(cudaGetDeviceCount(&count));
    EXPECT(count == 1);
    CUDA_CHECK(cudaDeviceCanAccessPeer(&can, 0, 0));
    EXPECT(can == 0);
    EXPECT(cudaDeviceGetP2PAttribute(&v, cudaDevP2PAttrAccessSupported, 0, 0) == cudaErrorInvalidDevice);
    EXPECT(cudaDeviceGetP2PAttribute(&v, cudaDevP2PAttrAccessSupported, 0, 1) == cudaErrorInvalidDevice);
    EXPECT(cudaDeviceGetP2PAttribute(nullptr, cudaDevP2PAttrAccessSupported, 0, 1) == cudaErrorInvalidValue);
    EXPECT(cudaGetLastError() == cudaErrorInvalidValue);
}

int main() {
    handBuiltGraph();
    paramInfo();
    twoStreamsAndAPool();
    pitchedCopies();
    cooperative();
    peers();
    CUDA_CHECK(cudaDeviceSynchronize());
    if (failures) {
        printf("%d checks FAILED\n", failures);
        return 1;
    }
    printf("PASS streams_graphs_tour\n");
    return 0;
}
