// Dynamic shared memory above 48 KiB: refused until cudaFuncSetAttribute raises the kernel's
// limit, as on a GPU; then 100 KiB of shared memory reverse a block's data.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void reverse(const int *in, int *out, int n) {
    extern __shared__ int tile[];
    for (int i = threadIdx.x; i < n; i += blockDim.x) tile[i] = in[i];
    __syncthreads();
    for (int i = threadIdx.x; i < n; i += blockDim.x) out[i] = tile[n - 1 - i];
}

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
    printf("FAIL %s: %s\n", #x, cudaGetErrorString(e)); return 1; } } while (0)

int main() {
    const int n = 100 * 1024 / sizeof(int);
    const size_t bytes = n * sizeof(int);
    int *h = new int[n], *in, *out;
    for (int i = 0; i < n; i++) h[i] = i * 3;
    CHECK(cudaMalloc(&in, bytes));
    CHECK(cudaMalloc(&out, bytes));
    CHECK(cudaMemcpy(in, h, bytes, cudaMemcpyHostToDevice));
    reverse<<<1, 256, bytes>>>(in, out, n);
    if (cudaGetLastError() == cudaSuccess) { printf("FAIL: 100 KiB without the attribute was accepted\n"); return 1; }
    CHECK(cudaFuncSetAttribute(reverse, cudaFuncAttributeMaxDynamicSharedMemorySize, (int) bytes));
    reverse<<<1, 256, bytes>>>(in, out, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h, out, bytes, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) if (h[i] != (n - 1 - i) * 3) { printf("FAIL out[%d] = %d\n", i, h[i]); return 1; }
    printf("PASS dynamic_shared\n");
    return 0;
}
