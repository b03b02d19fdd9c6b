// Built with nvcc --default-stream per-thread: stream 0 is each thread's own default stream (the
// runtime's _ptsz/_ptds entry points), which, unlike the legacy one, can capture.
#include <cstdio>
#include <cuda_runtime.h>
#include <thread>

__global__ void add_one(int *p, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] += 1;
}

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("FAIL line %d: %s: %s\n", __LINE__, #x, cudaGetErrorName(e_)); return 1; } } while (0)

int main() {
    const int n = 100;
    static int h[n];
    int *a;
    CHECK(cudaMalloc(&a, sizeof h));
    CHECK(cudaMemsetAsync(a, 0, sizeof h, 0));
    add_one<<<1, 128>>>(a, n);                                // a = 1
    CHECK(cudaGetLastError());
    CHECK(cudaStreamSynchronize(0));
    CHECK(cudaStreamBeginCapture(0, cudaStreamCaptureModeGlobal)); // this thread's default stream
    add_one<<<1, 128>>>(a, n);
    add_one<<<1, 128>>>(a, n);
    CHECK(cudaMemcpyAsync(h, a, sizeof h, cudaMemcpyDeviceToHost, 0));
    cudaStreamCaptureStatus st;
    CHECK(cudaStreamIsCapturing(cudaStreamPerThread, &st));
    if (st != cudaStreamCaptureStatusActive) { printf("FAIL: the per-thread stream is not capturing (%d)\n", (int) st); return 1; }
    cudaGraph_t g;
    CHECK(cudaStreamEndCapture(0, &g));
    CHECK(cudaMemcpy(h, a, sizeof h, cudaMemcpyDeviceToHost));
    if (h[0] != 1) { printf("FAIL: captured work ran (a[0] = %d)\n", h[0]); return 1; }
    cudaGraphExec_t x;
    CHECK(cudaGraphInstantiate(&x, g, 0));
    CHECK(cudaGraphLaunch(x, 0));
    CHECK(cudaStreamSynchronize(0));
    for (int i = 0; i < n; i++) if (h[i] != 3) { printf("FAIL h[%d] = %d\n", i, h[i]); return 1; }
    CHECK(cudaGraphExecDestroy(x));
    CHECK(cudaGraphDestroy(g));
    // A thread that ends while its default stream captures (a program bug): the capture ends with
    // it, so the legacy stream (blocked while a blocking stream captures) is usable again.
    int began = -1;
    std::thread t([&] { began = cudaStreamBeginCapture(0, cudaStreamCaptureModeRelaxed); add_one<<<1, 128>>>(a, n); });
    t.join();
    CHECK((cudaError_t) began);
    add_one<<<1, 128, 0, cudaStreamLegacy>>>(a, n);
    CHECK(cudaGetLastError());
    CHECK(cudaStreamSynchronize(cudaStreamLegacy));
    CHECK(cudaFree(a));
    printf("PASS per_thread\n");
    return 0;
}
