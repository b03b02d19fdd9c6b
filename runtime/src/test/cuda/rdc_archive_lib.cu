// A device-code library (docs/runtime.md, "Relocatable device code"), built into an archive with
// nvcc -arch=sm_90a -rdc=true -lib -o librdc_archive_lib.a rdc_archive_lib.cu and linked into
// rdc_archive_main.cu's program: a device function and a __device__ table that the program's
// kernel uses, and a kernel of its own with the host function that launches it.
#include <cuda_runtime.h>

__device__ int archive_table[4] = {3, 5, 7, 11};

__device__ int archive_mix(int x) { return x * archive_table[x % 4] + 1; }

__global__ void archive_fill(int *out, int n, int k) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = k * i;
}

cudaError_t archive_launch_fill(int *out, int n, int k) {
    archive_fill<<<(n + 63) / 64, 64>>>(out, n, k);
    return cudaGetLastError();
}
