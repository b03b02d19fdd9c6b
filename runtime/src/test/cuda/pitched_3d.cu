// Pitched and 3D linear memory: cudaMallocPitch / cudaMalloc3D, 2D and 3D copies of every kind
// (device-to-device too, and with positions), cudaMemset2D/3D, and bad arguments refused with
// CUDA's error and nothing written.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void scale3d(cudaPitchedPtr p, int w, int h, int d) {
    int x = threadIdx.x, y = threadIdx.y, z = blockIdx.x;
    if (x < w && y < h && z < d) {
        int *row = (int *) ((char *) p.ptr + z * p.pitch * p.ysize + y * p.pitch);
        row[x] = row[x] * 2 + 1;
    }
}

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
    printf("FAIL %s: %s\n", #x, cudaGetErrorString(e)); return 1; } } while (0)
#define EXPECT(c) do { if (!(c)) { printf("FAIL line %d: %s\n", __LINE__, #c); return 1; } } while (0)

int main() {
    const int w = 10, h = 4;
    int host[h][w], back[h][w];
    for (int y = 0; y < h; y++) for (int x = 0; x < w; x++) host[y][x] = y * 100 + x;
    int *a, *b;
    size_t pa, pb;
    CHECK(cudaMallocPitch((void **) &a, &pa, w * sizeof(int), h));
    CHECK(cudaMallocPitch((void **) &b, &pb, w * sizeof(int), h));
    CHECK(cudaMemset2D(b, pb, 0x7f, w * sizeof(int), h));
    CHECK(cudaMemcpy2D(a, pa, host, sizeof host[0], w * sizeof(int), h, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy2DAsync(b, pb, a, pa, w * sizeof(int), h, cudaMemcpyDeviceToDevice, 0));
    CHECK(cudaMemcpy2D(back, sizeof back[0], b, pb, w * sizeof(int), h, cudaMemcpyDefault));
    for (int y = 0; y < h; y++) for (int x = 0; x < w; x++) EXPECT(back[y][x] == host[y][x]);

    // Bad arguments: an error, and nothing written.
    EXPECT(cudaMemcpy2D(a, 4, host, sizeof host[0], w * sizeof(int), h, cudaMemcpyHostToDevice) == cudaErrorInvalidPitchValue);
    EXPECT(cudaMemset2D(a, 4, 0, w * sizeof(int), h) == cudaErrorInvalidPitchValue);
    cudaGetLastError();
    // The first rows fit, the last does not: refused before the first row is written.
    EXPECT(cudaMemcpy2D(a, pa, host, sizeof host[0], w * sizeof(int), h + 1, cudaMemcpyHostToDevice) == cudaErrorInvalidValue);
    EXPECT(cudaMemset2D(a, pa, 0, w * sizeof(int), h + 1) == cudaErrorInvalidValue);
    EXPECT(cudaMemset2D(a, pa, 0, w * sizeof(int), (size_t) 1 << 62) == cudaErrorInvalidValue); // rows past 2^64
    cudaGetLastError();
    CHECK(cudaMemcpy2D(back, sizeof back[0], a, pa, w * sizeof(int), h, cudaMemcpyDeviceToHost));
    for (int y = 0; y < h; y++) for (int x = 0; x < w; x++) EXPECT(back[y][x] == host[y][x]);

    // 3D: a w x h x d box of ints.
    const int d = 3;
    static int vol[d][h][w], out[d][h][w];
    for (int z = 0; z < d; z++) for (int y = 0; y < h; y++) for (int x = 0; x < w; x++) vol[z][y][x] = z * 1000 + y * 100 + x;
    cudaExtent ext = make_cudaExtent(w * sizeof(int), h, d);
    cudaPitchedPtr dv;
    CHECK(cudaMalloc3D(&dv, ext));
    EXPECT(dv.pitch >= w * sizeof(int) && dv.xsize == w * sizeof(int) && dv.ysize == h);
    CHECK(cudaMemset3D(dv, 0, ext));
    cudaMemcpy3DParms up = {0};
    up.srcPtr = make_cudaPitchedPtr(vol, w * sizeof(int), w, h);
    up.dstPtr = dv;
    up.extent = ext;
    up.kind = cudaMemcpyHostToDevice;
    CHECK(cudaMemcpy3D(&up));
    scale3d<<<d, dim3(w, h)>>>(dv, w, h, d);
    CHECK(cudaGetLastError());
    cudaMemcpy3DParms down = {0};
    down.srcPtr = dv;
    down.dstPtr = make_cudaPitchedPtr(out, w * sizeof(int), w, h);
    down.extent = ext;
    down.kind = cudaMemcpyDeviceToHost;
    CHECK(cudaMemcpy3DAsync(&down, 0));
    CHECK(cudaDeviceSynchronize());
    for (int z = 0; z < d; z++) for (int y = 0; y < h; y++) for (int x = 0; x < w; x++) EXPECT(out[z][y][x] == vol[z][y][x] * 2 + 1);

    // Device to device with positions: slice 1, rows 1..2, columns 2..5 of dv into a second box at (0,0,0).
    cudaPitchedPtr dw;
    CHECK(cudaMalloc3D(&dw, ext));
    CHECK(cudaMemset3D(dw, 0, ext));
    cudaMemcpy3DParms dd = {0};
    dd.srcPtr = dv;
    dd.srcPos = make_cudaPos(2 * sizeof(int), 1, 1);
    dd.dstPtr = dw;
    dd.extent = make_cudaExtent(4 * sizeof(int), 2, 1);
    dd.kind = cudaMemcpyDeviceToDevice;
    CHECK(cudaMemcpy3D(&dd));
    static int part[d][h][w];
    down.srcPtr = dw;
    down.dstPtr = make_cudaPitchedPtr(part, w * sizeof(int), w, h);
    CHECK(cudaMemcpy3D(&down));
    for (int z = 0; z < d; z++)
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++)
                EXPECT(part[z][y][x] == (z == 0 && y < 2 && x < 4 ? out[1][y + 1][x + 2] : 0));

    // Bad 3D arguments: a source pitch smaller than the width, a box past the allocation's end.
    cudaMemcpy3DParms bad = up;
    bad.srcPtr.pitch = 8;
    EXPECT(cudaMemcpy3D(&bad) == cudaErrorInvalidPitchValue);
    bad = up;
    bad.extent.depth = d + 1;
    bad.srcPtr = make_cudaPitchedPtr(vol, w * sizeof(int), w, h); // the host side is the program's business
    static int big[d + 1][h][w];
    bad.srcPtr.ptr = big;
    EXPECT(cudaMemcpy3D(&bad) == cudaErrorInvalidValue);
    cudaGetLastError();
    CHECK(cudaMemcpy3D(&down));
    for (int z = 0; z < d; z++) for (int y = 0; y < h; y++) for (int x = 0; x < w; x++) EXPECT(part[z][y][x] == (z == 0 && y < 2 && x < 4 ? out[1][y + 1][x + 2] : 0));

    CHECK(cudaFree(a));
    CHECK(cudaFree(b));
    CHECK(cudaFree(dv.ptr));
    CHECK(cudaFree(dw.ptr));
    printf("PASS pitched_3d\n");
    return 0;
}
