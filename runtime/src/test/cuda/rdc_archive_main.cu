// A program linked with a device-code library (rdc_archive_lib.cu, an archive of -rdc objects):
// nvcc -arch=sm_90a -rdc=true -cudart shared rdc_archive_main.cu librdc_archive_lib.a. Its own
// kernel calls the library's device function (which reads the library's __device__ table), and
// it calls the library's host function, which launches the library's kernel; the host checks
// every element against its own reference. Exits 0 when all is right.
#include <cstdio>
#include <cuda_runtime.h>

__device__ int archive_mix(int x);                         // in the library
cudaError_t archive_launch_fill(int *out, int n, int k);   // in the library

__global__ void use_library(const int *in, int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = archive_mix(in[i]);
}

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
    printf("FAIL %s: %s\n", #x, cudaGetErrorString(e)); return 1; } } while (0)

int main() {
    const int n = 100;
    int *in, *out, h[n];
    CHECK(cudaMalloc(&in, n * sizeof(int)));
    CHECK(cudaMalloc(&out, n * sizeof(int)));
    CHECK(archive_launch_fill(in, n, 3));
    use_library<<<(n + 63) / 64, 64>>>(in, out, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
    const int table[4] = {3, 5, 7, 11};
    for (int i = 0; i < n; i++) {
        int x = 3 * i, want = x * table[x % 4] + 1;
        if (h[i] != want) { printf("FAIL element %d: %d, want %d\n", i, h[i], want); return 1; }
    }
    printf("PASS rdc_archive %d elements\n", n);
    return 0;
}
