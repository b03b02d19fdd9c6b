// More of the memory API: free/total memory, pitched allocations with 2D copies both ways,
// pointer attributes, registered host memory, and a cooperative launch.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void add_rows(float *m, size_t pitch, int w, int h) {
    int x = threadIdx.x, y = blockIdx.x;
    if (x < w && y < h) {
        float *row = (float *) ((char *) m + y * pitch);
        row[x] += 100.0f * y;
    }
}

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
    printf("FAIL %s: %s\n", #x, cudaGetErrorString(e)); return 1; } } while (0)
#define EXPECT(c) do { if (!(c)) { printf("FAIL %s\n", #c); return 1; } } while (0)

int main() {
    size_t free0, total;
    CHECK(cudaMemGetInfo(&free0, &total));
    EXPECT(free0 <= total && total > 0);
    const int w = 20, h = 6;
    float host[h][w];
    for (int y = 0; y < h; y++) for (int x = 0; x < w; x++) host[y][x] = (float) (y * w + x);
    float *m;
    size_t pitch;
    CHECK(cudaMallocPitch((void **) &m, &pitch, w * sizeof(float), h));
    EXPECT(pitch >= w * sizeof(float));
    size_t free1;
    CHECK(cudaMemGetInfo(&free1, &total));
    EXPECT(free1 < free0);
    CHECK(cudaMemset2D(m, pitch, 0, pitch, h));
    CHECK(cudaMemcpy2D(m, pitch, host, w * sizeof(float), w * sizeof(float), h, cudaMemcpyHostToDevice));
    void *args[] = {&m, &pitch, (void *) &w, (void *) &h};
    CHECK(cudaLaunchCooperativeKernel((const void *) add_rows, dim3(h), dim3(32), args, 0, 0));
    CHECK(cudaMemcpy2D(host, w * sizeof(float), m, pitch, w * sizeof(float), h, cudaMemcpyDeviceToHost));
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) EXPECT(host[y][x] == (float) (y * w + x) + 100.0f * y);
    cudaPointerAttributes pa;
    CHECK(cudaPointerGetAttributes(&pa, m));
    EXPECT(pa.type == cudaMemoryTypeDevice && pa.device == 0);
    CHECK(cudaPointerGetAttributes(&pa, host));
    EXPECT(pa.type == cudaMemoryTypeUnregistered);
    static float pinned[64];
    CHECK(cudaHostRegister(pinned, sizeof pinned, cudaHostRegisterDefault));
    CHECK(cudaHostUnregister(pinned));
    CHECK(cudaFree(m));
    printf("PASS more_memory\n");
    return 0;
}
