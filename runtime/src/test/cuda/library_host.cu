// The host side of a GPU library's entry points, as libraries write them: dispatch on what kind
// of pointer the caller passed (cudaPointerGetAttributes of device, pool, managed, pinned,
// registered and plain host memory), the caller's stream inspected (flags, priority, device, id,
// capture status), a kernel looked up by handle (cudaGetKernel, cudaGetFuncBySymbol) and launched
// through it, its name and attributes read, limits raised for it, symbols copied on the stream.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("FAIL line %d %s: %s\n", __LINE__, #x, cudaGetErrorName(e_)); return 1; } } while (0)
#define EXPECT(c) do { if (!(c)) { printf("FAIL line %d: %s\n", __LINE__, #c); failures++; } } while (0)
static int failures = 0;

__constant__ float coeffs[4];
__device__ float result[64];

__global__ void poly(const float *x, float *y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = x[i];
        y[i] = ((coeffs[3] * v + coeffs[2]) * v + coeffs[1]) * v + coeffs[0];
        result[i % 64] = y[i];
    }
}

static int kindOf(const void *p) {
    cudaPointerAttributes a;
    if (cudaPointerGetAttributes(&a, p) != cudaSuccess) return -1;
    return (int) a.type;
}

int main() {
    const int n = 64;
    float *dev, *pooled, *managed, *pinned, *registered = (float *) malloc(n * sizeof(float)), plain[4];
    cudaStream_t s;
    CHECK(cudaStreamCreateWithPriority(&s, cudaStreamNonBlocking, -2));
    CHECK(cudaMalloc(&dev, n * sizeof(float)));
    CHECK(cudaMallocAsync(&pooled, n * sizeof(float), s));
    CHECK(cudaMallocManaged(&managed, n * sizeof(float)));
    CHECK(cudaMallocHost(&pinned, n * sizeof(float)));
    CHECK(cudaHostRegister(registered, n * sizeof(float), cudaHostRegisterDefault));
    CHECK(cudaStreamSynchronize(s));
    EXPECT(kindOf(dev) == cudaMemoryTypeDevice);
    EXPECT(kindOf(pooled) == cudaMemoryTypeDevice);
    EXPECT(kindOf(managed) == cudaMemoryTypeManaged);
    EXPECT(kindOf(pinned) == cudaMemoryTypeHost);
    EXPECT(kindOf(registered) == cudaMemoryTypeHost);
    EXPECT(kindOf(plain) == cudaMemoryTypeUnregistered);
    cudaPointerAttributes a;
    CHECK(cudaPointerGetAttributes(&a, pinned + 5));
    EXPECT(a.hostPointer == pinned + 5 && a.devicePointer == pinned + 5 && a.device == 0);

    // The caller's stream.
    unsigned flags = 9;
    int prio = 9, device = 9;
    unsigned long long id = 0;
    CHECK(cudaStreamGetFlags(s, &flags));
    EXPECT(flags == cudaStreamNonBlocking);
    CHECK(cudaStreamGetPriority(s, &prio));
    EXPECT(prio == -2);
    CHECK(cudaStreamGetDevice(s, &device));
    EXPECT(device == 0);
    CHECK(cudaStreamGetId(s, &id));
    EXPECT(id != 0);
    cudaStreamCaptureStatus st = cudaStreamCaptureStatusActive;
    CHECK(cudaStreamIsCapturing(s, &st));
    EXPECT(st == cudaStreamCaptureStatusNone);

    // The kernel by handle.
    cudaKernel_t kernel;
    CHECK(cudaGetKernel(&kernel, poly));
    void *fn = nullptr;
    CHECK(cudaGetFuncBySymbol((cudaFunction_t *) &fn, (const void *) poly));
    EXPECT(fn != nullptr);
    const char *name = nullptr;
    CHECK(cudaFuncGetName(&name, (const void *) poly));
    EXPECT(name != nullptr && strcmp(name, "_Z4polyPKfPfi") == 0);
    cudaFuncAttributes fa;
    CHECK(cudaFuncGetAttributes(&fa, (const void *) poly));
    EXPECT(fa.maxThreadsPerBlock == 1024 && fa.sharedSizeBytes == 0);
    size_t stack = 0;
    CHECK(cudaDeviceGetLimit(&stack, cudaLimitStackSize));
    CHECK(cudaDeviceSetLimit(cudaLimitStackSize, stack * 2));
    CHECK(cudaDeviceGetLimit(&stack, cudaLimitStackSize));
    EXPECT(stack == 2048);

    float c[4] = {1, 2, 3, 4}, host[n], back[n], sym[64];
    for (int i = 0; i < n; i++) host[i] = (float) i / 8;
    CHECK(cudaMemcpyToSymbolAsync(coeffs, c, sizeof c, 0, cudaMemcpyHostToDevice, s));
    CHECK(cudaMemcpyAsync(pooled, host, sizeof host, cudaMemcpyHostToDevice, s));
    int count = n;
    void *args[] = {&pooled, &managed, &count};
    CHECK(cudaLaunchKernel((const void *) kernel, dim3(2), dim3(32), args, 0, s));
    CHECK(cudaMemcpyFromSymbolAsync(sym, result, sizeof sym, 0, cudaMemcpyDeviceToHost, s));
    CHECK(cudaMemcpyAsync(back, managed, sizeof back, cudaMemcpyDefault, s));
    CHECK(cudaStreamSynchronize(s));
    for (int i = 0; i < n; i++) {
        float v = host[i], want = ((4 * v + 3) * v + 2) * v + 1;
        EXPECT(fabsf(back[i] - want) <= 1e-5f * fabsf(want) || (printf("at %d: %f vs %f\n", i, back[i], want), false));
        EXPECT(sym[i] == back[i]);
        EXPECT(managed[i] == back[i]);
    }
    CHECK(cudaFreeAsync(pooled, s));
    CHECK(cudaStreamSynchronize(s));
    CHECK(cudaHostUnregister(registered));
    CHECK(cudaFreeHost(pinned));
    CHECK(cudaFree(managed));
    CHECK(cudaFree(dev));
    CHECK(cudaStreamDestroy(s));
    free(registered);
    if (failures) {
        printf("%d checks FAILED\n", failures);
        return 1;
    }
    printf("PASS library_host\n");
    return 0;
}
