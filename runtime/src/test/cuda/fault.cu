// A kernel that writes one element past its allocation: on a GPU an illegal address (or silent
// corruption); under barrierscope exec a memory fault naming the nearest allocation, and the
// program gets cudaErrorIllegalAddress from the launch and from the next copy.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void off_by_one(int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i <= n) out[i] = i;  // <= : one too many
}

int main() {
    const int n = 64;
    int *out;
    cudaMalloc(&out, n * sizeof(int));
    off_by_one<<<1, 128>>>(out, n);
    cudaError_t launch = cudaGetLastError();
    int host[n];
    cudaError_t copy = cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost);
    printf("launch: %s; copy: %s\n", cudaGetErrorName(launch), cudaGetErrorName(copy));
    return copy == cudaSuccess ? 0 : 1;
}
