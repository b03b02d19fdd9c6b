// Errors as a program sees them: a bad launch configuration, cudaGetLastError clearing it,
// cudaPeekAtLastError not, cudaGetErrorString/Name, a copy through a pointer that is no
// allocation, and an API BarrierScope does not implement.
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

__global__ void nothing(int *p) { if (p) *p = 1; }
static void host_only() {}

int main() {
    int fails = 0;
    nothing<<<1, 2048>>>(nullptr);  // more than 1024 threads per block
    cudaError_t e = cudaPeekAtLastError();
    if (e != cudaErrorInvalidConfiguration) { printf("FAIL peek: %d\n", (int) e); fails++; }
    e = cudaGetLastError();
    if (e != cudaErrorInvalidConfiguration) { printf("FAIL last: %d\n", (int) e); fails++; }
    if (cudaGetLastError() != cudaSuccess) { printf("FAIL: cudaGetLastError did not clear\n"); fails++; }
    if (strcmp(cudaGetErrorString(cudaErrorInvalidConfiguration), "invalid configuration argument") != 0) {
        printf("FAIL string: %s\n", cudaGetErrorString(cudaErrorInvalidConfiguration)); fails++;
    }
    if (strcmp(cudaGetErrorName(cudaErrorIllegalAddress), "cudaErrorIllegalAddress") != 0) { printf("FAIL name\n"); fails++; }
    int host = 0;
    int *bogus = (int *) 0x10;
    e = cudaMemcpy(&host, bogus, sizeof host, cudaMemcpyDeviceToHost);
    if (e != cudaErrorInvalidValue) { printf("FAIL bad copy: %s\n", cudaGetErrorName(e)); fails++; }
    cudaGetLastError();
    // A launch of a host function that was never registered as a kernel.
    void *noargs[1] = {nullptr};
    e = cudaLaunchKernel((const void *) &host_only, dim3(1), dim3(32), noargs, 0, 0);
    if (e != cudaErrorInvalidDeviceFunction) { printf("FAIL unknown function: %s\n", cudaGetErrorName(e)); fails++; }
    cudaGetLastError();
    // GPUDirect RDMA needs a network adapter writing into the GPU: not emulated.
    e = cudaDeviceFlushGPUDirectRDMAWrites(cudaFlushGPUDirectRDMAWritesTargetCurrentDevice, cudaFlushGPUDirectRDMAWritesToOwner);
    if (e != cudaErrorNotSupported) { printf("FAIL unimplemented: %d\n", (int) e); fails++; }
    printf(fails ? "FAIL errors\n" : "PASS errors\n");
    return fails ? 1 : 0;
}
