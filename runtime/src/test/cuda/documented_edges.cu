// Edge cases of the runtime API whose results the CUDA Runtime API documents, as a library's
// own host-side unit tests assert them: events never recorded (query, synchronize and wait
// succeed), zero-byte copies, device ordinals that do not exist, flags that are not flags,
// dynamic shared memory beyond the opt-in maximum, a symbol that is none.
#include <cstdio>
#include <cuda_runtime.h>

#define EXPECT(c) do { if (!(c)) { printf("FAIL line %d: %s\n", __LINE__, #c); failures++; } } while (0)
static int failures = 0;

__device__ int counter;
__global__ void k(int *p) { if (p && threadIdx.x == 0) *p = 1; }

int main() {
    // "If cudaEventRecord() has not been called on this event, the function returns cudaSuccess."
    cudaEvent_t e;
    EXPECT(cudaEventCreate(&e) == cudaSuccess);
    EXPECT(cudaEventQuery(e) == cudaSuccess);
    EXPECT(cudaEventSynchronize(e) == cudaSuccess);
    cudaStream_t s;
    EXPECT(cudaStreamCreate(&s) == cudaSuccess);
    EXPECT(cudaStreamWaitEvent(s, e, 0) == cudaSuccess);
    EXPECT(cudaStreamQuery(s) == cudaSuccess);
    // Zero bytes move nothing and succeed.
    int *d = nullptr, h = 5;
    EXPECT(cudaMalloc(&d, sizeof(int)) == cudaSuccess);
    EXPECT(cudaMemcpy(d, &h, 0, cudaMemcpyHostToDevice) == cudaSuccess);
    EXPECT(cudaMemcpyAsync(&h, d, 0, cudaMemcpyDeviceToHost, s) == cudaSuccess);
    EXPECT(cudaMemsetAsync(d, 0, 0, s) == cudaSuccess);
    // One device: ordinal 1 is no device.
    cudaDeviceProp p;
    int v = 0;
    EXPECT(cudaGetDeviceProperties(&p, 1) == cudaErrorInvalidDevice);
    EXPECT(cudaDeviceGetAttribute(&v, cudaDevAttrWarpSize, 1) == cudaErrorInvalidDevice);
    EXPECT(cudaSetDevice(1) == cudaErrorInvalidDevice);
    EXPECT(cudaGetLastError() == cudaErrorInvalidDevice);
    int dev = -1;
    EXPECT(cudaGetDevice(&dev) == cudaSuccess && dev == 0);
    // Flags that are not flags.
    cudaStream_t bad;
    EXPECT(cudaStreamCreateWithFlags(&bad, 0x10) == cudaErrorInvalidValue);
    cudaEvent_t badEvent;
    EXPECT(cudaEventCreateWithFlags(&badEvent, 0x100) == cudaErrorInvalidValue);
    EXPECT(cudaGetLastError() == cudaErrorInvalidValue);
    // Dynamic shared memory: at most cudaDevAttrMaxSharedMemoryPerBlockOptin minus static.
    int optin = 0;
    EXPECT(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0) == cudaSuccess);
    EXPECT(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, optin) == cudaSuccess);
    EXPECT(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, optin + 1) == cudaErrorInvalidValue);
    EXPECT(cudaGetLastError() == cudaErrorInvalidValue);
    k<<<1, 32, optin, s>>>(d);
    EXPECT(cudaGetLastError() == cudaSuccess);
    k<<<1, 32, optin + 16, s>>>(d);
    EXPECT(cudaGetLastError() == cudaErrorInvalidValue);
    EXPECT(cudaStreamSynchronize(s) == cudaSuccess);
    EXPECT(cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost) == cudaSuccess && h == 1);
    // A symbol must be a __device__ or __constant__ variable.
    void *addr = nullptr;
    size_t size = 0;
    EXPECT(cudaGetSymbolAddress(&addr, counter) == cudaSuccess && addr != nullptr);
    EXPECT(cudaGetSymbolSize(&size, counter) == cudaSuccess && size == sizeof(int));
    EXPECT(cudaGetSymbolAddress(&addr, &h) == cudaErrorInvalidSymbol);
    EXPECT(cudaGetLastError() == cudaErrorInvalidSymbol);
    EXPECT(cudaFree(d) == cudaSuccess);
    EXPECT(cudaEventDestroy(e) == cudaSuccess);
    EXPECT(cudaStreamDestroy(s) == cudaSuccess);
    if (failures) {
        printf("%d checks FAILED\n", failures);
        return 1;
    }
    printf("PASS documented_edges\n");
    return 0;
}
