// A failed device-side assert, as cuda-samples' simpleAssert checks it: the launch's error is
// cudaErrorAssert, and it is sticky ("the device cannot be used again").
#include <cassert>
#include <cstdio>
#include <cuda_runtime.h>

__global__ void check_positive(const int *v) { assert(v[threadIdx.x] > 0); }

#define EXPECT(c) do { if (!(c)) { printf("FAIL line %d: %s\n", __LINE__, #c); return 1; } } while (0)

int main() {
    int host[32], *dev;
    for (int i = 0; i < 32; i++) host[i] = i + 1;
    EXPECT(cudaMalloc(&dev, sizeof host) == cudaSuccess);
    EXPECT(cudaMemcpy(dev, host, sizeof host, cudaMemcpyHostToDevice) == cudaSuccess);
    check_positive<<<1, 32>>>(dev);
    EXPECT(cudaDeviceSynchronize() == cudaSuccess);
    host[5] = 0;
    EXPECT(cudaMemcpy(dev, host, sizeof host, cudaMemcpyHostToDevice) == cudaSuccess);
    check_positive<<<1, 32>>>(dev);
    cudaError_t e = cudaDeviceSynchronize();
    printf("after the failed assert: %s (%s)\n", cudaGetErrorName(e), cudaGetErrorString(e));
    EXPECT(e == cudaErrorAssert);
    void *more = nullptr;
    EXPECT(cudaMalloc(&more, 16) == cudaErrorAssert);
    EXPECT(cudaGetLastError() == cudaErrorAssert);
    printf("PASS device_assert\n");
    return 0;
}
