// A layered gather on the engine (docs/semantics.md, "Textures and surfaces": tld4.a2d). CUDA C++
// has no layered form of tex2Dgather, so the kernel uses the PTX instruction itself (inline asm),
// on a 2D layered float array made with cudaArrayLayered | cudaArrayTextureGather and filled by
// cudaMemcpy3D; the four footprint texels of each gather are checked against a host reference
// written here from the documented rule (counter-clockwise from the lower left, clamp, within the
// layer), bit for bit. txq.array_size gives the number of layers.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
    printf("FAIL %s: %s\n", #x, cudaGetErrorString(e)); return 1; } } while (0)
#define EXPECT(c) do { if (!(c)) { printf("FAIL line %d: %s\n", __LINE__, #c); return 1; } } while (0)

static const int W = 5, H = 3, L = 4, N = 64;

__global__ void gatherLayered(cudaTextureObject_t t, const float2 *xy, const int *layer, float4 *out, int *size) {
    int i = threadIdx.x;
    float4 r;
    asm("tld4.r.a2d.v4.f32.f32 {%0, %1, %2, %3}, [%4, {%5, %6, %7, %7}];"
        : "=f"(r.x), "=f"(r.y), "=f"(r.z), "=f"(r.w) : "l"(t), "r"(layer[i]), "f"(xy[i].x), "f"(xy[i].y));
    out[i] = r;
    if (i == 0) asm("txq.array_size.b32 %0, [%1];" : "=r"(*size) : "l"(t));
}

static float img[L * H * W];
static int clampIdx(int i, int n) { return i < 0 ? 0 : i >= n ? n - 1 : i; }
static float texel(int l, int x, int y) { return img[(l * H + clampIdx(y, H)) * W + clampIdx(x, W)]; }

int main() {
    for (int l = 0; l < L; l++)
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) img[(l * H + y) * W + x] = 100.0f * l + cosf(0.8f * x + 1.9f * y);
    cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
    cudaArray_t a;
    CHECK(cudaMalloc3DArray(&a, &fd, make_cudaExtent(W, H, L), cudaArrayLayered | cudaArrayTextureGather));
    cudaMemcpy3DParms p = {};
    p.srcPtr = make_cudaPitchedPtr(img, W * sizeof(float), W, H);
    p.dstArray = a;
    p.extent = make_cudaExtent(W, H, L);
    p.kind = cudaMemcpyHostToDevice;
    CHECK(cudaMemcpy3D(&p));
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = a;
    cudaTextureDesc td = {};
    td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
    td.readMode = cudaReadModeElementType;
    cudaTextureObject_t t;
    CHECK(cudaCreateTextureObject(&t, &rd, &td, nullptr));

    float2 hxy[N], *dxy;
    int hl[N], *dl, *dsize, size = 0;
    for (int i = 0; i < N; i++) {
        hxy[i] = make_float2(-0.7f + 0.113f * i, 3.6f - 0.071f * i);  // unnormalized, past both edges
        hl[i] = (i * 3) % L;
    }
    float4 *dout, out[N];
    CHECK(cudaMalloc(&dxy, sizeof hxy));
    CHECK(cudaMalloc(&dl, sizeof hl));
    CHECK(cudaMalloc(&dout, sizeof out));
    CHECK(cudaMalloc(&dsize, sizeof(int)));
    CHECK(cudaMemcpy(dxy, hxy, sizeof hxy, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dl, hl, sizeof hl, cudaMemcpyHostToDevice));
    gatherLayered<<<1, N>>>(t, dxy, dl, dout, dsize);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&size, dsize, sizeof size, cudaMemcpyDeviceToHost));
    EXPECT(size == L);
    for (int i = 0; i < N; i++) {
        int x = (int) floorf(hxy[i].x - 0.5f), y = (int) floorf(hxy[i].y - 0.5f), l = hl[i];
        float want[4] = {texel(l, x, y + 1), texel(l, x + 1, y + 1), texel(l, x + 1, y), texel(l, x, y)};
        float got[4] = {out[i].x, out[i].y, out[i].z, out[i].w};
        if (memcmp(got, want, sizeof want) != 0) { printf("FAIL tld4.a2d %d: %a, want %a\n", i, got[0], want[0]); return 1; }
    }
    CHECK(cudaDestroyTextureObject(t));
    CHECK(cudaFreeArray(a));
    printf("PASS layered_gather\n");
    return 0;
}
