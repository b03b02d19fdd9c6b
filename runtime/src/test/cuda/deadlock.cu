// A kernel that never finishes on a GPU: the odd warp skips the named barrier the even warps
// wait on. Under barrierscope exec the launch fails with an explanation, the program gets
// cudaErrorLaunchTimeout from the launch and from the next synchronize, and exits non-zero.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void stuck(int *out) {
    if (threadIdx.x < 32) asm volatile("bar.sync 1, 64;");  // waits for 64 threads; only 32 come
    out[threadIdx.x] = threadIdx.x;
}

int main() {
    int *out;
    cudaMalloc(&out, 64 * sizeof(int));
    stuck<<<1, 64>>>(out);
    cudaError_t launch = cudaGetLastError();
    cudaError_t sync = cudaDeviceSynchronize();
    printf("launch: %s; synchronize: %s\n", cudaGetErrorName(launch), cudaGetErrorName(sync));
    return sync == cudaSuccess ? 0 : 1;
}
