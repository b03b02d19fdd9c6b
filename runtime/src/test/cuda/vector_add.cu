// vector add with copies both ways: host -> device, a kernel, device -> host, device -> device,
// cudaMemset and cudaMemcpyDefault. Exits 0 when every element is right (as on a GPU).
#include <cstdio>
#include <cuda_runtime.h>

__global__ void vector_add(const float *a, const float *b, float *c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
    printf("FAIL %s: %s\n", #x, cudaGetErrorString(e)); return 1; } } while (0)

int main() {
    const int n = 200;  // not a multiple of the block: the guard matters
    float ha[n], hb[n], hc[n];
    for (int i = 0; i < n; i++) { ha[i] = (float) i; hb[i] = 1000.0f + 2 * i; hc[i] = -1; }
    float *a, *b, *c, *d;
    CHECK(cudaMalloc(&a, n * sizeof(float)));
    CHECK(cudaMalloc(&b, n * sizeof(float)));
    CHECK(cudaMalloc(&c, n * sizeof(float)));
    CHECK(cudaMalloc(&d, n * sizeof(float)));
    CHECK(cudaMemcpy(a, ha, n * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(b, hb, n * sizeof(float), cudaMemcpyDefault));
    CHECK(cudaMemset(c, 0, n * sizeof(float)));
    vector_add<<<(n + 63) / 64, 64>>>(a, b, c, n);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(d, c, n * sizeof(float), cudaMemcpyDeviceToDevice));
    CHECK(cudaMemcpy(hc, d, n * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {
        if (hc[i] != 1000.0f + 3 * i) { printf("FAIL c[%d] = %f\n", i, hc[i]); return 1; }
    }
    CHECK(cudaFree(a)); CHECK(cudaFree(b)); CHECK(cudaFree(c)); CHECK(cudaFree(d));
    printf("PASS vector_add %d elements\n", n);
    return 0;
}
