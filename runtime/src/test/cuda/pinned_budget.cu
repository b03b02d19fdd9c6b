// Pinned host memory lives in the device's budget too (it is mapped like managed memory): an
// allocation over it is refused with cudaErrorMemoryAllocation, the message naming the call made
// (cudaMallocAsync's too).
#include <cstdio>
#include <cuda_runtime.h>

#define EXPECT(c) do { if (!(c)) { printf("FAIL line %d: %s\n", __LINE__, #c); return 1; } } while (0)

int main() {
    void *p = NULL;
    EXPECT(cudaMallocHost(&p, (size_t) 5 << 30) == cudaErrorMemoryAllocation);
    EXPECT(cudaGetLastError() == cudaErrorMemoryAllocation);
    EXPECT(cudaHostAlloc(&p, (size_t) 6 << 30, cudaHostAllocMapped) == cudaErrorMemoryAllocation);
    EXPECT(cudaMallocManaged(&p, (size_t) 7 << 30, cudaMemAttachGlobal) == cudaErrorMemoryAllocation);
    EXPECT(cudaMalloc(&p, (size_t) 8 << 30) == cudaErrorMemoryAllocation);
    EXPECT(cudaMallocAsync(&p, (size_t) 9 << 30, 0) == cudaErrorMemoryAllocation);
    cudaGetLastError();
    EXPECT(cudaFreeAsync((void *) 16, 0) == cudaErrorInvalidValue); // named as the call made, not cudaFree
    cudaGetLastError();
    EXPECT(cudaMallocHost(&p, 16) == cudaSuccess); // the refusals left nothing behind
    EXPECT(cudaFreeHost(p) == cudaSuccess);
    printf("PASS pinned_budget\n");
    return 0;
}
