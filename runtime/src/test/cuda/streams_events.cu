// Streams and events: work on two streams, an event between them, elapsed time from the
// engine's virtual cycles (positive, and the same on every run).
#include <cstdio>
#include <cuda_runtime.h>

__global__ void fill(int *p, int v, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = v + i;
}

__global__ void add_from(int *dst, const int *src, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) dst[i] += src[i];
}

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
    printf("FAIL %s: %s\n", #x, cudaGetErrorString(e)); return 1; } } while (0)

int main() {
    const int n = 96;
    int *a, *b, *h;
    cudaStream_t s1, s2;
    cudaEvent_t start, done1, stop;
    CHECK(cudaStreamCreate(&s1));
    CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&done1));
    CHECK(cudaEventCreate(&stop));
    CHECK(cudaMalloc(&a, n * sizeof(int)));
    CHECK(cudaMalloc(&b, n * sizeof(int)));
    CHECK(cudaMallocHost(&h, n * sizeof(int)));
    CHECK(cudaEventRecord(start, s1));
    fill<<<2, 64, 0, s1>>>(a, 0, n);
    CHECK(cudaEventRecord(done1, s1));
    fill<<<2, 64, 0, s2>>>(b, 1000, n);
    CHECK(cudaStreamWaitEvent(s2, done1, 0));
    add_from<<<2, 64, 0, s2>>>(b, a, n);
    CHECK(cudaMemcpyAsync(h, b, n * sizeof(int), cudaMemcpyDeviceToHost, s2));
    CHECK(cudaEventRecord(stop, s2));
    CHECK(cudaStreamSynchronize(s2));
    CHECK(cudaEventSynchronize(stop));
    for (int i = 0; i < n; i++) if (h[i] != 1000 + 2 * i) { printf("FAIL h[%d] = %d\n", i, h[i]); return 1; }
    float ms = -1;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    if (!(ms > 0)) { printf("FAIL elapsed %f ms\n", ms); return 1; }
    printf("elapsed %.9f ms\n", ms);
    CHECK(cudaStreamDestroy(s1)); CHECK(cudaStreamDestroy(s2));
    // Not a stream of the program's: an error, not a crash.
    if (cudaStreamDestroy(0) != cudaErrorInvalidResourceHandle) { printf("FAIL destroying the default stream\n"); return 1; }
    cudaGetLastError();
    CHECK(cudaEventDestroy(start)); CHECK(cudaEventDestroy(done1)); CHECK(cudaEventDestroy(stop));
    CHECK(cudaFreeHost(h));
    printf("PASS streams_events\n");
    return 0;
}
