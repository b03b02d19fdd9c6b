// __managed__ variables: initialized in the module, read and written by the host and by kernels
// under one name, the kernel's writes seen by the host after the launch and the host's by the next.
#include <cstdio>
#include <cuda_runtime.h>

__managed__ int counter = 5;
__managed__ float table[8];
__managed__ int late = 40; // first touched by a kernel, only then by the host

__global__ void bump(int by) {
    int c = counter + by;
    __syncthreads(); // every thread has read counter before thread 0 writes it
    if (threadIdx.x == 0) counter = c;
    table[threadIdx.x] = table[threadIdx.x] * 2.0f + (float) c;
}

__global__ void touch_late() { late += 2; }

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
    printf("FAIL %s: %s\n", #x, cudaGetErrorString(e)); return 1; } } while (0)
#define EXPECT(c) do { if (!(c)) { printf("FAIL line %d: %s\n", __LINE__, #c); return 1; } } while (0)

int main() {
    touch_late<<<1, 1>>>();
    CHECK(cudaDeviceSynchronize());
    EXPECT(counter == 5);
    EXPECT(late == 42);
    counter = 10;
    for (int i = 0; i < 8; i++) table[i] = (float) i;
    bump<<<1, 8>>>(1);
    CHECK(cudaDeviceSynchronize());
    EXPECT(counter == 11);
    for (int i = 0; i < 8; i++) EXPECT(table[i] == 2.0f * i + 11.0f);
    counter = 100;
    bump<<<1, 8>>>(0);
    CHECK(cudaDeviceSynchronize());
    EXPECT(table[3] == 2.0f * (2.0f * 3 + 11.0f) + 100.0f);
    cudaPointerAttributes pa;
    CHECK(cudaPointerGetAttributes(&pa, &counter));
    EXPECT(pa.type == cudaMemoryTypeManaged);
    late = 1;
    touch_late<<<1, 1>>>();
    CHECK(cudaDeviceSynchronize());
    EXPECT(late == 3);
    printf("PASS managed_vars\n");
    return 0;
}
