// Zero-copy host memory, as cuda-samples' simpleZeroCopy and harnesses that pass a pinned flag
// or result buffer to a kernel use it: cudaHostAlloc(cudaHostAllocMapped) + cudaHostGetDevicePointer,
// and, with unified addressing, a cudaMallocHost pointer handed to a kernel as it is. Every value
// is checked on the host after the launch, as on a GPU.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void vector_add(const float *a, const float *b, float *c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

__global__ void bump(int *counter, int *done) {
    atomicAdd(counter, 1);
    if (threadIdx.x == 0 && blockIdx.x == 0) *done = 42;
}

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
    printf("FAIL %s: %s\n", #x, cudaGetErrorString(e)); return 1; } } while (0)
#define EXPECT(c) do { if (!(c)) { printf("FAIL line %d: %s\n", __LINE__, #c); return 1; } } while (0)

int main() {
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    EXPECT(prop.canMapHostMemory == 1 && prop.unifiedAddressing == 1);
    CHECK(cudaSetDeviceFlags(cudaDeviceMapHost));

    const int n = 1000;
    float *a, *b, *c, *da, *db, *dc;
    CHECK(cudaHostAlloc((void **) &a, n * sizeof(float), cudaHostAllocMapped));
    CHECK(cudaHostAlloc((void **) &b, n * sizeof(float), cudaHostAllocMapped | cudaHostAllocPortable));
    CHECK(cudaHostAlloc((void **) &c, n * sizeof(float), cudaHostAllocMapped | cudaHostAllocWriteCombined));
    for (int i = 0; i < n; i++) {
        a[i] = (float) i;
        b[i] = 0.5f * i;
        c[i] = -1.0f;
    }
    CHECK(cudaHostGetDevicePointer((void **) &da, a, 0));
    CHECK(cudaHostGetDevicePointer((void **) &db, b, 0));
    CHECK(cudaHostGetDevicePointer((void **) &dc, c, 0));
    EXPECT(da == a);  // unified addressing: the same pointer
    vector_add<<<(n + 255) / 256, 256>>>(da, db, dc, n);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    for (int i = 0; i < n; i++) EXPECT(c[i] == 1.5f * i);
    unsigned flags = 0;
    CHECK(cudaHostGetFlags(&flags, b));
    EXPECT(flags == (cudaHostAllocMapped | cudaHostAllocPortable));
    float *inner = nullptr;
    CHECK(cudaHostGetDevicePointer((void **) &inner, a + 10, 0));
    EXPECT(inner == da + 10);

    // A cudaMallocHost buffer given to a kernel as it is; the host changes it between launches.
    int *pinned;
    CHECK(cudaMallocHost((void **) &pinned, 2 * sizeof(int)));
    pinned[0] = 100;
    pinned[1] = 0;
    bump<<<2, 64>>>(&pinned[0], &pinned[1]);
    CHECK(cudaDeviceSynchronize());
    EXPECT(pinned[0] == 228 && pinned[1] == 42);
    pinned[0] = 7;
    bump<<<1, 32>>>(&pinned[0], &pinned[1]);
    CHECK(cudaStreamSynchronize(0));
    EXPECT(pinned[0] == 39);
    CHECK(cudaHostGetFlags(&flags, pinned));
    EXPECT(flags == 0);
    cudaPointerAttributes attr;
    CHECK(cudaPointerGetAttributes(&attr, pinned));
    EXPECT(attr.type == cudaMemoryTypeHost && attr.devicePointer == pinned && attr.hostPointer == pinned);

    // Copies between pinned and device memory, both directions, and a memset of device memory.
    int *dev;
    CHECK(cudaMalloc(&dev, 2 * sizeof(int)));
    CHECK(cudaMemcpyAsync(dev, pinned, 2 * sizeof(int), cudaMemcpyHostToDevice, 0));
    CHECK(cudaMemsetAsync(pinned, 0, 2 * sizeof(int), 0));
    CHECK(cudaMemcpy(pinned, dev, 2 * sizeof(int), cudaMemcpyDeviceToHost));
    EXPECT(pinned[0] == 39 && pinned[1] == 42);
    CHECK(cudaMemcpy(dev, pinned, sizeof(int), cudaMemcpyDefault));

    // Not pinned memory has no device pointer; the flags argument must be 0.
    int *plain = (int *) malloc(64);
    void *dp = nullptr;
    EXPECT(cudaHostGetDevicePointer(&dp, plain, 0) == cudaErrorInvalidValue);
    EXPECT(cudaGetLastError() == cudaErrorInvalidValue);
    EXPECT(cudaHostGetDevicePointer(&dp, a, 1) == cudaErrorInvalidValue);
    cudaGetLastError();
    free(plain);

    CHECK(cudaFree(dev));
    CHECK(cudaFreeHost(pinned));
    CHECK(cudaFreeHost(a));
    CHECK(cudaFreeHost(b));
    CHECK(cudaFreeHost(c));
    printf("PASS host_mapped\n");
    return 0;
}
