// After a launch fails on the device (here: a deadlock, cudaErrorLaunchTimeout), the error is
// sticky as CUDA documents it: "any further CUDA work will return the same error" — copies,
// allocations, launches, synchronization, even cudaDeviceReset — and cudaGetLastError cannot
// clear it. A refused launch configuration before that is not sticky. Queries of the device's
// fixed properties still answer.
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

__global__ void stuck(int *out) {
    if (threadIdx.x < 32) asm volatile("bar.sync 1, 64;");  // waits for 64 threads; only 32 come
    out[threadIdx.x] = threadIdx.x;
}

__global__ void fine(int *out) { out[threadIdx.x] = 7; }

#define EXPECT(what, got, want) do { cudaError_t g = (got); if (g != (want)) { \
    printf("FAIL %s: %s, want %s\n", what, cudaGetErrorName(g), cudaGetErrorName(want)); return 1; } } while (0)

int main() {
    int *out, host[64];
    EXPECT("cudaMalloc", cudaMalloc(&out, sizeof host), cudaSuccess);
    // A configuration the device refuses is the launch's error only.
    fine<<<1, 2048>>>(out);
    EXPECT("refused launch", cudaGetLastError(), cudaErrorInvalidConfiguration);
    EXPECT("after the refused launch", cudaGetLastError(), cudaSuccess);
    fine<<<1, 64>>>(out);
    EXPECT("a good launch", cudaDeviceSynchronize(), cudaSuccess);

    stuck<<<1, 64>>>(out);
    const cudaError_t t = cudaErrorLaunchTimeout;
    EXPECT("the failed launch", cudaGetLastError(), t);
    EXPECT("cudaGetLastError again (cannot clear it)", cudaGetLastError(), t);
    EXPECT("cudaPeekAtLastError", cudaPeekAtLastError(), t);
    EXPECT("cudaDeviceSynchronize", cudaDeviceSynchronize(), t);
    EXPECT("cudaDeviceSynchronize again", cudaDeviceSynchronize(), t);
    EXPECT("cudaMemcpy", cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost), t);
    int *more = nullptr;
    EXPECT("cudaMalloc", cudaMalloc(&more, 16), t);
    EXPECT("cudaMemset", cudaMemset(out, 0, sizeof host), t);
    EXPECT("cudaMemset2D", cudaMemset2D(out, 64, 0, 64, 1), t);
    EXPECT("cudaMemcpy2D", cudaMemcpy2D(host, 64, out, 64, 64, 1, cudaMemcpyDeviceToHost), t);
    cudaPitchedPtr pp;
    EXPECT("cudaMalloc3D", cudaMalloc3D(&pp, make_cudaExtent(64, 2, 2)), t);
    EXPECT("cudaMemset3D", cudaMemset3D(make_cudaPitchedPtr(out, 64, 64, 1), 0, make_cudaExtent(64, 1, 1)), t);
    cudaMemcpy3DParms c = {};
    c.srcPtr = make_cudaPitchedPtr(out, 64, 64, 1);
    c.dstPtr = make_cudaPitchedPtr(host, 64, 64, 1);
    c.extent = make_cudaExtent(64, 1, 1);
    c.kind = cudaMemcpyDeviceToHost;
    EXPECT("cudaMemcpy3D", cudaMemcpy3D(&c), t);
    int *managed = nullptr;
    EXPECT("cudaMallocManaged", cudaMallocManaged(&managed, 16), t);
    cudaStream_t s;
    EXPECT("cudaStreamCreate", cudaStreamCreate(&s), t);
    cudaIpcMemHandle_t mh;
    memset(&mh, 0, sizeof mh);
    void *opened = nullptr;
    EXPECT("cudaIpcGetMemHandle", cudaIpcGetMemHandle(&mh, out), t);
    EXPECT("cudaIpcOpenMemHandle", cudaIpcOpenMemHandle(&opened, mh, cudaIpcMemLazyEnablePeerAccess), t);
    EXPECT("cudaIpcCloseMemHandle", cudaIpcCloseMemHandle(out), t);
    fine<<<1, 64>>>(out);
    EXPECT("a later launch", cudaGetLastError(), t);
    EXPECT("cudaDeviceReset", cudaDeviceReset(), t);
    EXPECT("cudaMemcpy after the reset", cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost), t);
    EXPECT("cudaFree", cudaFree(out), t);
    int n = 0, peer = -1;
    EXPECT("cudaDeviceCanAccessPeer (a query)", cudaDeviceCanAccessPeer(&peer, 0, 0), cudaSuccess);
    EXPECT("cudaGetDeviceCount (a query)", cudaGetDeviceCount(&n), cudaSuccess);
    cudaDeviceProp p;
    EXPECT("cudaGetDeviceProperties (a query)", cudaGetDeviceProperties(&p, 0), cudaSuccess);
    if (n != 1 || p.major != 9) { printf("FAIL queries: %d devices, major %d\n", n, p.major); return 1; }
    printf("PASS sticky\n");
    return 0;
}
