// __constant__ and __device__ variables: written with cudaMemcpyToSymbol, read back with
// cudaMemcpyFromSymbol and through cudaGetSymbolAddress; a __device__ counter keeps its value
// from one launch to the next.
#include <cstdio>
#include <cuda_runtime.h>

__constant__ int scale[4];
__device__ int launches_seen;
__device__ float table[8];

__global__ void use_symbols(int *out) {
    int i = threadIdx.x;
    out[i] = scale[i % 4] * (int) table[i % 8];
    if (i == 0) launches_seen += 1;
}

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
    printf("FAIL %s: %s\n", #x, cudaGetErrorString(e)); return 1; } } while (0)

int main() {
    int hs[4] = {1, 10, 100, 1000};
    float ht[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    CHECK(cudaMemcpyToSymbol(scale, hs, sizeof hs));
    CHECK(cudaMemcpyToSymbol(table, ht, sizeof ht));
    int *out;
    CHECK(cudaMalloc(&out, 32 * sizeof(int)));
    use_symbols<<<1, 32>>>(out);
    CHECK(cudaGetLastError());
    // A second launch after changing one constant: the counter persists, the constant changed.
    int two = 2;
    CHECK(cudaMemcpyToSymbol(scale, &two, sizeof two, 0));
    use_symbols<<<1, 32>>>(out);
    CHECK(cudaGetLastError());
    int hout[32];
    CHECK(cudaMemcpy(hout, out, sizeof hout, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 32; i++) {
        int s = i % 4 == 0 ? 2 : hs[i % 4];
        if (hout[i] != s * (int) ht[i % 8]) { printf("FAIL out[%d] = %d\n", i, hout[i]); return 1; }
    }
    int seen = -1;
    CHECK(cudaMemcpyFromSymbol(&seen, launches_seen, sizeof seen));
    if (seen != 2) { printf("FAIL launches_seen = %d\n", seen); return 1; }
    float *tp;
    CHECK(cudaGetSymbolAddress((void **) &tp, table));
    float t5;
    CHECK(cudaMemcpy(&t5, tp + 5, sizeof t5, cudaMemcpyDeviceToHost));
    if (t5 != 6) { printf("FAIL table[5] through its address = %f\n", t5); return 1; }
    printf("PASS symbols\n");
    return 0;
}
