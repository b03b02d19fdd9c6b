// Host code written the way NVIDIA's cuda-samples write it (a checkCudaErrors macro on every
// call, getLastCudaError after launches, deviceQuery's field reads, bandwidthTest's pinned
// transfers timed with events, asyncAPI's polling of an event, simpleOccupancy's block size
// query, simpleCudaGraphs' capture and instantiate, a kernel compiled with __launch_bounds__),
// each result checked against what a GPU gives.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

#define checkCudaErrors(val) check((val), #val, __FILE__, __LINE__)
static void check(cudaError_t result, const char *func, const char *file, int line) {
    if (result) {
        fprintf(stderr, "CUDA error at %s:%d code=%d(%s) \"%s\"\n", file, line, (int) result,
                cudaGetErrorName(result), func);
        exit(EXIT_FAILURE);
    }
}
#define getLastCudaError(msg) do { cudaError_t e = cudaGetLastError(); if (e != cudaSuccess) { \
    fprintf(stderr, "%s(%d) : getLastCudaError() CUDA error : %s : (%d) %s.\n", __FILE__, __LINE__, \
            msg, (int) e, cudaGetErrorString(e)); exit(EXIT_FAILURE); } } while (0)
#define EXPECT(c) do { if (!(c)) { printf("FAIL line %d: %s\n", __LINE__, #c); failures++; } } while (0)
static int failures = 0;

__global__ void __launch_bounds__(128) increment_kernel(int *g_data, int inc_value) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    g_data[idx] = g_data[idx] + inc_value;
}

__global__ void square(int *array, int arrayCount) {
    int idx = threadIdx.x + blockIdx.x * blockDim.x;
    if (idx < arrayCount) array[idx] *= array[idx];
}

__global__ void reduce_to(const float *in, float *out, int n) {
    extern __shared__ float s[];
    float v = 0;
    for (int i = threadIdx.x; i < n; i += blockDim.x) v += in[i];
    s[threadIdx.x] = v;
    __syncthreads();
    for (int w = blockDim.x / 2; w > 0; w /= 2) {
        if (threadIdx.x < w) s[threadIdx.x] += s[threadIdx.x + w];
        __syncthreads();
    }
    if (threadIdx.x == 0) *out = s[0];
}

static void deviceQuery() {
    int count = 0;
    checkCudaErrors(cudaGetDeviceCount(&count));
    EXPECT(count == 1);
    cudaDeviceProp p;
    checkCudaErrors(cudaGetDeviceProperties(&p, 0));
    int driver = 0, runtime = 0;
    checkCudaErrors(cudaDriverGetVersion(&driver));
    checkCudaErrors(cudaRuntimeGetVersion(&runtime));
    printf("Device 0: \"%s\"  CUDA Driver Version / Runtime Version %d.%d / %d.%d\n", p.name, driver / 1000,
           (driver % 100) / 10, runtime / 1000, (runtime % 100) / 10);
    printf("  CUDA Capability %d.%d, %d MPs, %zu bytes global memory\n", p.major, p.minor, p.multiProcessorCount,
           p.totalGlobalMem);
    EXPECT(strlen(p.name) > 0);
    EXPECT(p.major == 9 && p.minor == 0);
    EXPECT(p.warpSize == 32);
    EXPECT(p.maxThreadsPerBlock == 1024);
    EXPECT(p.maxThreadsDim[0] == 1024 && p.maxThreadsDim[1] == 1024 && p.maxThreadsDim[2] == 64);
    EXPECT(p.maxGridSize[0] == 2147483647 && p.maxGridSize[1] == 65535 && p.maxGridSize[2] == 65535);
    EXPECT(p.sharedMemPerBlock == 49152);
    EXPECT(p.regsPerBlock == 65536 && p.regsPerMultiprocessor == 65536);
    EXPECT(p.maxThreadsPerMultiProcessor == 2048);
    EXPECT(p.maxBlocksPerMultiProcessor == 32);
    EXPECT(p.totalConstMem == 65536);
    EXPECT(p.unifiedAddressing == 1);
    EXPECT(p.concurrentKernels == 1);
    EXPECT(p.maxTexture1D == 131072);
    EXPECT(p.maxTexture3D[0] == 16384 && p.maxTexture3D[1] == 16384 && p.maxTexture3D[2] == 16384);
    EXPECT(p.maxTexture1DLayered[0] == 32768 && p.maxTexture1DLayered[1] == 2048);
    EXPECT(p.maxTexture2DLayered[0] == 32768 && p.maxTexture2DLayered[1] == 32768 && p.maxTexture2DLayered[2] == 2048);
    EXPECT(p.pageableMemoryAccess == 0);
    EXPECT(p.computePreemptionSupported == 1);
    EXPECT(p.globalL1CacheSupported == 1);
    EXPECT(p.persistingL2CacheMaxSize >= 0);
    EXPECT(p.reservedSharedMemPerBlock == 1024);
    EXPECT(p.sharedMemPerBlockOptin == 232448);
    // The attributes say the same as the properties.
    int v = 0;
    checkCudaErrors(cudaDeviceGetAttribute(&v, cudaDevAttrMultiProcessorCount, 0));
    EXPECT(v == p.multiProcessorCount);
    checkCudaErrors(cudaDeviceGetAttribute(&v, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0));
    EXPECT(v == (int) p.sharedMemPerBlockOptin);
    checkCudaErrors(cudaDeviceGetAttribute(&v, cudaDevAttrClockRate, 0));
    EXPECT(v > 0);
    checkCudaErrors(cudaDeviceGetAttribute(&v, cudaDevAttrComputeCapabilityMajor, 0));
    EXPECT(v == 9);
    int lo = 1, hi = 1;
    checkCudaErrors(cudaDeviceGetStreamPriorityRange(&lo, &hi));
    EXPECT(lo == 0 && hi < 0);
    size_t free_b = 0, total_b = 0;
    checkCudaErrors(cudaMemGetInfo(&free_b, &total_b));
    EXPECT(free_b <= total_b && total_b == p.totalGlobalMem);
}

static void errorStrings() {
    EXPECT(strcmp(cudaGetErrorName(cudaSuccess), "cudaSuccess") == 0);
    EXPECT(strcmp(cudaGetErrorString(cudaSuccess), "no error") == 0);
    EXPECT(strcmp(cudaGetErrorName(cudaErrorInvalidValue), "cudaErrorInvalidValue") == 0);
    EXPECT(strcmp(cudaGetErrorString(cudaErrorInvalidValue), "invalid argument") == 0);
    EXPECT(strcmp(cudaGetErrorString(cudaErrorMemoryAllocation), "out of memory") == 0);
    EXPECT(strcmp(cudaGetErrorString(cudaErrorInvalidConfiguration), "invalid configuration argument") == 0);
    EXPECT(strcmp(cudaGetErrorString(cudaErrorNotReady), "device not ready") == 0);
    EXPECT(strcmp(cudaGetErrorName(cudaErrorInvalidDeviceFunction), "cudaErrorInvalidDeviceFunction") == 0);
    EXPECT(strcmp(cudaGetErrorName(cudaErrorLaunchOutOfResources), "cudaErrorLaunchOutOfResources") == 0);
    EXPECT(strcmp(cudaGetErrorString(cudaErrorLaunchOutOfResources), "too many resources requested for launch") == 0);
    EXPECT(strcmp(cudaGetErrorString(cudaErrorMisalignedAddress), "misaligned address") == 0);
    EXPECT(strcmp(cudaGetErrorName(cudaErrorContextIsDestroyed), "cudaErrorContextIsDestroyed") == 0);
    EXPECT(strcmp(cudaGetErrorName((cudaError_t) 12345), "unrecognized error code") == 0);
    EXPECT(strcmp(cudaGetErrorString((cudaError_t) 12345), "unrecognized error code") == 0);
}

static void launchConfigErrors() {
    int *d = nullptr;
    checkCudaErrors(cudaMalloc(&d, 1024 * sizeof(int)));
    // More threads than a block may have: the launch is refused, the error not sticky.
    square<<<1, 2048>>>(d, 1024);
    EXPECT(cudaPeekAtLastError() == cudaErrorInvalidConfiguration);
    EXPECT(cudaGetLastError() == cudaErrorInvalidConfiguration);
    EXPECT(cudaGetLastError() == cudaSuccess);
    square<<<0, 32>>>(d, 1024);
    EXPECT(cudaGetLastError() == cudaErrorInvalidConfiguration);
    square<<<dim3(1, 65536), 32>>>(d, 1024);
    EXPECT(cudaGetLastError() == cudaErrorInvalidConfiguration);
    // More threads than the kernel's __launch_bounds__(128): too many resources requested.
    increment_kernel<<<1, 256>>>(d, 1);
    EXPECT(cudaGetLastError() == cudaErrorLaunchOutOfResources);
    increment_kernel<<<1, 128>>>(d, 1);
    EXPECT(cudaGetLastError() == cudaSuccess);
    // The device still works.
    checkCudaErrors(cudaMemset(d, 0, 1024 * sizeof(int)));
    checkCudaErrors(cudaDeviceSynchronize());
    checkCudaErrors(cudaFree(d));
}

static void functionAttributes() {
    cudaFuncAttributes a;
    checkCudaErrors(cudaFuncGetAttributes(&a, increment_kernel));
    // __launch_bounds__(128) is the kernel's limit, as the driver reports it.
    EXPECT(a.maxThreadsPerBlock == 128);
    EXPECT(a.ptxVersion == 90);
    EXPECT(a.binaryVersion == 90);
    checkCudaErrors(cudaFuncGetAttributes(&a, square));
    EXPECT(a.maxThreadsPerBlock == 1024);
    EXPECT(a.maxDynamicSharedSizeBytes == 48 * 1024 - (int) a.sharedSizeBytes);
    checkCudaErrors(cudaFuncGetAttributes(&a, reduce_to));
    EXPECT(a.sharedSizeBytes == 0);
}

static void occupancy() {
    int minGrid = 0, block = 0;
    checkCudaErrors(cudaOccupancyMaxPotentialBlockSize(&minGrid, &block, (void *) square, 0, 0));
    printf("simpleOccupancy: suggested block size %d, minimum grid %d\n", block, minGrid);
    EXPECT(block == 1024 && minGrid == 2 * 132);
    checkCudaErrors(cudaOccupancyMaxPotentialBlockSize(&minGrid, &block, increment_kernel, 0, 0));
    EXPECT(block == 128 && minGrid == 16 * 132);
    int blocks = 0;
    checkCudaErrors(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, square, 256, 0));
    EXPECT(blocks == 8);
    const int n = 10000;
    int *d = nullptr;
    checkCudaErrors(cudaMalloc(&d, n * sizeof(int)));
    int *h = (int *) malloc(n * sizeof(int));
    for (int i = 0; i < n; i++) h[i] = i % 100;
    checkCudaErrors(cudaMemcpy(d, h, n * sizeof(int), cudaMemcpyHostToDevice));
    square<<<(n + 255) / 256, 256>>>(d, n);
    getLastCudaError("square failed");
    checkCudaErrors(cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) EXPECT(h[i] == (i % 100) * (i % 100) || (printf("at %d\n", i), false));
    free(h);
    checkCudaErrors(cudaFree(d));
}

static void asyncApiAndBandwidth() {
    const int n = 16 * 128;
    const size_t bytes = n * sizeof(int);
    int *a = nullptr, *d = nullptr;
    checkCudaErrors(cudaMallocHost((void **) &a, bytes));
    memset(a, 0, bytes);
    checkCudaErrors(cudaMalloc((void **) &d, bytes));
    checkCudaErrors(cudaMemset(d, 255, bytes));
    cudaEvent_t start, stop;
    checkCudaErrors(cudaEventCreate(&start));
    checkCudaErrors(cudaEventCreateWithFlags(&stop, cudaEventBlockingSync));
    checkCudaErrors(cudaDeviceSynchronize());
    checkCudaErrors(cudaEventRecord(start, 0));
    checkCudaErrors(cudaMemcpyAsync(d, a, bytes, cudaMemcpyHostToDevice, 0));
    increment_kernel<<<n / 128, 128, 0, 0>>>(d, 26);
    checkCudaErrors(cudaMemcpyAsync(a, d, bytes, cudaMemcpyDeviceToHost, 0));
    checkCudaErrors(cudaEventRecord(stop, 0));
    unsigned long counter = 0;
    while (cudaEventQuery(stop) == cudaErrorNotReady) counter++;
    float ms = -1;
    checkCudaErrors(cudaEventElapsedTime(&ms, start, stop));
    printf("asyncAPI: time spent executing by the GPU: %.4f ms, CPU polled %lu times\n", ms, counter);
    EXPECT(ms > 0);
    for (int i = 0; i < n; i++) EXPECT(a[i] == 26 || (printf("at %d: %d\n", i, a[i]), false));
    // The elapsed time of events in the wrong order is negative, not an error.
    checkCudaErrors(cudaEventElapsedTime(&ms, stop, start));
    EXPECT(ms <= 0);
    // bandwidthTest: write-combined pinned memory, the copy timed on a stream of its own.
    void *wc = nullptr;
    checkCudaErrors(cudaHostAlloc(&wc, bytes, cudaHostAllocWriteCombined | cudaHostAllocPortable));
    cudaStream_t s;
    checkCudaErrors(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    checkCudaErrors(cudaEventRecord(start, s));
    for (int r = 0; r < 4; r++) checkCudaErrors(cudaMemcpyAsync(wc, d, bytes, cudaMemcpyDeviceToHost, s));
    checkCudaErrors(cudaEventRecord(stop, s));
    checkCudaErrors(cudaEventSynchronize(stop));
    checkCudaErrors(cudaEventElapsedTime(&ms, start, stop));
    EXPECT(ms >= 0);
    EXPECT(((int *) wc)[n - 1] == 26);
    unsigned int flags = 0;
    checkCudaErrors(cudaHostGetFlags(&flags, wc));
    EXPECT(flags == (cudaHostAllocWriteCombined | cudaHostAllocPortable));
    checkCudaErrors(cudaStreamSynchronize(s));
    EXPECT(cudaStreamQuery(s) == cudaSuccess);
    checkCudaErrors(cudaStreamDestroy(s));
    checkCudaErrors(cudaFreeHost(wc));
    checkCudaErrors(cudaEventDestroy(start));
    checkCudaErrors(cudaEventDestroy(stop));
    checkCudaErrors(cudaFreeHost(a));
    checkCudaErrors(cudaFree(d));
}

static void CUDART_CB hostCallback(void *data) { (*(int *) data)++; }

static void simpleCudaGraphs() {
    const int n = 1024;
    float *in = nullptr, *out = nullptr, *h = nullptr, *result_h = nullptr;
    checkCudaErrors(cudaMallocHost(&h, n * sizeof(float)));
    checkCudaErrors(cudaMallocHost(&result_h, sizeof(float)));
    float &result = *result_h;
    for (int i = 0; i < n; i++) h[i] = 1.0f;
    checkCudaErrors(cudaMalloc(&in, n * sizeof(float)));
    checkCudaErrors(cudaMalloc(&out, sizeof(float)));
    cudaStream_t s;
    checkCudaErrors(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    cudaGraph_t graph;
    int calls = 0;
    checkCudaErrors(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    checkCudaErrors(cudaMemcpyAsync(in, h, n * sizeof(float), cudaMemcpyHostToDevice, s));
    checkCudaErrors(cudaMemsetAsync(out, 0, sizeof(float), s));
    reduce_to<<<1, 256, 256 * sizeof(float), s>>>(in, out, n);
    checkCudaErrors(cudaGetLastError());
    checkCudaErrors(cudaMemcpyAsync(&result, out, sizeof(float), cudaMemcpyDeviceToHost, s));
    checkCudaErrors(cudaLaunchHostFunc(s, hostCallback, &calls));
    checkCudaErrors(cudaStreamEndCapture(s, &graph));
    size_t nodes = 0;
    checkCudaErrors(cudaGraphGetNodes(graph, nullptr, &nodes));
    EXPECT(nodes == 5);
    cudaGraphExec_t exec;
    checkCudaErrors(cudaGraphInstantiate(&exec, graph, 0));
    for (int i = 0; i < 3; i++) {
        h[0] = (float) i;  // the copy node reads h when the graph runs
        checkCudaErrors(cudaGraphLaunch(exec, s));
        checkCudaErrors(cudaStreamSynchronize(s));
        EXPECT(result == n - 1 + i);
    }
    EXPECT(calls == 3);
    // The same shape captured again updates the executable graph in place.
    cudaGraph_t again;
    checkCudaErrors(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    checkCudaErrors(cudaMemcpyAsync(in, h, n * sizeof(float), cudaMemcpyHostToDevice, s));
    checkCudaErrors(cudaMemsetAsync(out, 0, sizeof(float), s));
    reduce_to<<<1, 128, 128 * sizeof(float), s>>>(in, out, n / 2);
    checkCudaErrors(cudaMemcpyAsync(&result, out, sizeof(float), cudaMemcpyDeviceToHost, s));
    checkCudaErrors(cudaLaunchHostFunc(s, hostCallback, &calls));
    checkCudaErrors(cudaStreamEndCapture(s, &again));
    cudaGraphExecUpdateResultInfo info;
    checkCudaErrors(cudaGraphExecUpdate(exec, again, &info));
    EXPECT(info.result == cudaGraphExecUpdateSuccess);
    h[0] = 1.0f;
    checkCudaErrors(cudaGraphLaunch(exec, s));
    checkCudaErrors(cudaStreamSynchronize(s));
    EXPECT(result == n / 2);
    EXPECT(calls == 4);
    checkCudaErrors(cudaGraphExecDestroy(exec));
    checkCudaErrors(cudaGraphDestroy(graph));
    checkCudaErrors(cudaGraphDestroy(again));
    checkCudaErrors(cudaStreamDestroy(s));
    checkCudaErrors(cudaFree(in));
    checkCudaErrors(cudaFree(out));
    checkCudaErrors(cudaFreeHost(h));
    checkCudaErrors(cudaFreeHost(result_h));
}

static void pointerAttributes() {
    int local = 0;
    cudaPointerAttributes attr;
    checkCudaErrors(cudaPointerGetAttributes(&attr, &local));
    EXPECT(attr.type == cudaMemoryTypeUnregistered);
    int *d = nullptr;
    checkCudaErrors(cudaMalloc(&d, 64));
    checkCudaErrors(cudaPointerGetAttributes(&attr, d + 3));
    EXPECT(attr.type == cudaMemoryTypeDevice && attr.device == 0 && attr.devicePointer == d + 3);
    EXPECT(attr.hostPointer == nullptr);
    checkCudaErrors(cudaFree(d));
    // Freeing twice is an error the program sees, not a crash.
    EXPECT(cudaFree(d) == cudaErrorInvalidValue);
    EXPECT(cudaGetLastError() == cudaErrorInvalidValue);
    EXPECT(cudaFree(nullptr) == cudaSuccess);
}

int main() {
    printf("[samples_tour] Starting...\n");
    checkCudaErrors(cudaSetDevice(0));
    deviceQuery();
    errorStrings();
    launchConfigErrors();
    functionAttributes();
    occupancy();
    asyncApiAndBandwidth();
    simpleCudaGraphs();
    pointerAttributes();
    if (failures) {
        printf("%d checks FAILED\n", failures);
        return EXIT_FAILURE;
    }
    printf("Test passed\n");
    return EXIT_SUCCESS;
}
