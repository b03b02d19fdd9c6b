// Peer copies on the one device: cudaMemcpyPeer(Async) from device 0 to device 0 is a
// device-to-device copy; peer access to the device itself is refused as documented (it is no
// peer of itself: cudaDeviceCanAccessPeer says 0); any other device does not exist.
#include <cstdio>
#include <cuda_runtime.h>

static int fails = 0;
#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("FAIL line %d: %s: %s\n", __LINE__, #x, cudaGetErrorName(e_)); return 1; } } while (0)
#define EXPECT_ERR(call, want) do { cudaError_t e_ = (call); cudaGetLastError(); if (e_ != (want)) { \
    printf("FAIL line %d: %s gave %s\n", __LINE__, #call, cudaGetErrorName(e_)); fails++; } } while (0)

int main() {
    const int n = 64;
    int h[n], back[n];
    for (int i = 0; i < n; i++) h[i] = 1000 + i;
    int *a, *b, *c;
    CHECK(cudaMalloc(&a, sizeof h));
    CHECK(cudaMalloc(&b, sizeof h));
    CHECK(cudaMalloc(&c, sizeof h));
    CHECK(cudaMemcpy(a, h, sizeof h, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpyPeer(b, 0, a, 0, sizeof h));
    cudaStream_t s;
    CHECK(cudaStreamCreate(&s));
    CHECK(cudaMemcpyPeerAsync(c, 0, b, 0, sizeof h, s));
    CHECK(cudaStreamSynchronize(s));
    CHECK(cudaMemcpy(back, c, sizeof back, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) if (back[i] != 1000 + i) { printf("FAIL back[%d] = %d\n", i, back[i]); return 1; }

    int can = -1;
    CHECK(cudaDeviceCanAccessPeer(&can, 0, 0));
    if (can != 0) { printf("FAIL cudaDeviceCanAccessPeer(0, 0) = %d\n", can); fails++; }
    EXPECT_ERR(cudaDeviceEnablePeerAccess(0, 0), cudaErrorInvalidDevice);
    EXPECT_ERR(cudaDeviceEnablePeerAccess(1, 0), cudaErrorInvalidDevice);
    EXPECT_ERR(cudaDeviceDisablePeerAccess(0), cudaErrorPeerAccessNotEnabled);
    EXPECT_ERR(cudaDeviceDisablePeerAccess(1), cudaErrorInvalidDevice);
    EXPECT_ERR(cudaMemcpyPeer(b, 1, a, 0, sizeof h), cudaErrorInvalidDevice);
    EXPECT_ERR(cudaMemcpyPeerAsync(b, 0, a, 2, sizeof h, s), cudaErrorInvalidDevice);
    EXPECT_ERR(cudaMemcpyPeer(b, 0, h, 0, sizeof h), cudaErrorInvalidValue); // a host pointer is no device memory
    CHECK(cudaStreamDestroy(s));
    printf(fails ? "FAIL peer\n" : "PASS peer\n");
    return fails ? 1 : 0;
}
