// Layered CUDA arrays, their texture and surface objects on the engine (docs/runtime.md, "Arrays,
// textures and surfaces"; docs/semantics.md, "Textures and surfaces"), each checked against a host
// reference written here from the documented rules, bit for bit:
//  - a 1D layered float array (height 0, depth = layers) filled by cudaMemcpy3D, fetched with
//    tex1DLayered (point sampling, clamp: x never runs on into the next layer);
//  - a 2D layered float array filled by cudaMemcpy3D, fetched with tex2DLayered with linear
//    filtering, clamp and normalized coordinates (the hardware's 1.8 fixed-point weights, within
//    one layer);
//  - a 2D layered surface written by surf2DLayeredwrite in one kernel, read by surf2DLayeredread
//    in another, and copied back by cudaMemcpy3D.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
    printf("FAIL %s: %s\n", #x, cudaGetErrorString(e)); return 1; } } while (0)
#define EXPECT(c) do { if (!(c)) { printf("FAIL line %d: %s\n", __LINE__, #c); return 1; } } while (0)

static const int W1 = 6, L1 = 3;         // 1D layered: 6 texels by 3 layers
static const int W = 5, H = 4, L = 3;    // 2D layered: 5 x 4 texels by 3 layers
static const int SW = 4, SH = 3, SL = 2; // surface: 4 x 3 ints by 2 layers
static const int N = 64;

__global__ void fetch1dLayered(cudaTextureObject_t t, const float *x, const int *layer, float *out) {
    int i = threadIdx.x;
    out[i] = tex1DLayered<float>(t, x[i], layer[i]);
}
__global__ void fetch2dLayered(cudaTextureObject_t t, const float2 *uv, const int *layer, float *out) {
    int i = threadIdx.x;
    out[i] = tex2DLayered<float>(t, uv[i].x, uv[i].y, layer[i]);
}
__global__ void paintLayers(cudaSurfaceObject_t s) {
    int x = threadIdx.x, y = threadIdx.y, z = threadIdx.z;
    surf2DLayeredwrite(z * 1000 + y * 10 + x, s, x * 4, y, z);
}
__global__ void readLayers(cudaSurfaceObject_t s, int *out) {
    int x = threadIdx.x, y = threadIdx.y, z = threadIdx.z;
    out[(z * SH + y) * SW + x] = surf2DLayeredread<int>(s, x * 4, y, z) * 2;
}

// ---- host reference (the documented rules, written independently of the engine) ----
static int clampIdx(int i, int n) { return i < 0 ? 0 : i >= n ? n - 1 : i; }
static float texel(const float *img, int layer, int x, int y) { return img[(layer * H + clampIdx(y, H)) * W + clampIdx(x, W)]; }
static float linearRef(const float *img, int layer, float u, float v) {
    float x = u * (float) W - 0.5f, y = v * (float) H - 0.5f;
    float fx = floorf(x), fy = floorf(y);
    int a = (int) rintf((x - fx) * 256.0f), b = (int) rintf((y - fy) * 256.0f);
    int i = (int) fx, j = (int) fy;
    double s = (double) ((256 - a) * (256 - b)) * texel(img, layer, i, j) + (double) (a * (256 - b)) * texel(img, layer, i + 1, j)
             + (double) ((256 - a) * b) * texel(img, layer, i, j + 1) + (double) (a * b) * texel(img, layer, i + 1, j + 1);
    return (float) (s / 65536.0);
}

static cudaTextureObject_t texOf(cudaArray_t a, int filter, int normalized) {
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = a;
    cudaTextureDesc td = {};
    td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
    td.filterMode = (cudaTextureFilterMode) filter;
    td.readMode = cudaReadModeElementType;
    td.normalizedCoords = normalized;
    cudaTextureObject_t t = 0;
    return cudaCreateTextureObject(&t, &rd, &td, nullptr) == cudaSuccess ? t : 0;
}

int main() {
    cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
    cudaArray_t bad = nullptr;
    EXPECT(cudaMalloc3DArray(&bad, &fd, make_cudaExtent(4, 4, 0), cudaArrayLayered) == cudaErrorInvalidValue); // no layers
    cudaGetLastError();

    // 1D layered: extent (W1, 0, L1); the copy's extent is (W1, 1, L1).
    float line[L1 * W1];
    for (int l = 0; l < L1; l++)
        for (int x = 0; x < W1; x++) line[l * W1 + x] = 100.0f * l + x * 1.25f;
    cudaArray_t a1;
    CHECK(cudaMalloc3DArray(&a1, &fd, make_cudaExtent(W1, 0, L1), cudaArrayLayered));
    cudaExtent got;
    unsigned flags;
    CHECK(cudaArrayGetInfo(nullptr, &got, &flags, a1));
    EXPECT(got.width == W1 && got.height == 0 && got.depth == L1 && flags == cudaArrayLayered);
    cudaMemcpy3DParms p1 = {};
    p1.srcPtr = make_cudaPitchedPtr(line, W1 * sizeof(float), W1, 1);
    p1.dstArray = a1;
    p1.extent = make_cudaExtent(W1, 1, L1);
    p1.kind = cudaMemcpyHostToDevice;
    CHECK(cudaMemcpy3D(&p1));
    cudaTextureObject_t t1 = texOf(a1, cudaFilterModePoint, 0);
    EXPECT(t1 != 0);
    float hx[N], *dx, *dout;
    int hl[N], *dl;
    for (int i = 0; i < N; i++) {
        hx[i] = (float) (i % 9) - 1.3f;  // -1.3 .. 6.7: both edges clamp
        hl[i] = i % L1;
    }
    CHECK(cudaMalloc(&dx, sizeof hx));
    CHECK(cudaMalloc(&dl, sizeof hl));
    CHECK(cudaMalloc(&dout, N * sizeof(float)));
    CHECK(cudaMemcpy(dx, hx, sizeof hx, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dl, hl, sizeof hl, cudaMemcpyHostToDevice));
    fetch1dLayered<<<1, N>>>(t1, dx, dl, dout);
    CHECK(cudaGetLastError());
    float out[N];
    CHECK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++) {
        float want = line[hl[i] * W1 + clampIdx((int) floorf(hx[i]), W1)];
        if (memcmp(&out[i], &want, 4) != 0) { printf("FAIL tex1DLayered %d: %a, want %a\n", i, out[i], want); return 1; }
    }

    // 2D layered: extent (W, H, L), linear filtering with normalized coordinates and clamp.
    float img[L * H * W];
    for (int l = 0; l < L; l++)
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) img[(l * H + y) * W + x] = sinf(0.7f * x + 1.3f * y) * (l + 1) + 10.0f * l;
    cudaArray_t a2;
    CHECK(cudaMalloc3DArray(&a2, &fd, make_cudaExtent(W, H, L), cudaArrayLayered));
    cudaMemcpy3DParms p2 = {};
    p2.srcPtr = make_cudaPitchedPtr(img, W * sizeof(float), W, H);
    p2.dstArray = a2;
    p2.extent = make_cudaExtent(W, H, L);
    p2.kind = cudaMemcpyHostToDevice;
    CHECK(cudaMemcpy3D(&p2));
    cudaTextureObject_t t2 = texOf(a2, cudaFilterModeLinear, 1);
    EXPECT(t2 != 0);
    float2 huv[N], *duv;
    for (int i = 0; i < N; i++) {
        huv[i] = make_float2(-0.15f + 0.021f * i, 1.1f - 0.019f * i);  // includes both sides' edges
        hl[i] = (i * 7) % L;
    }
    CHECK(cudaMalloc(&duv, sizeof huv));
    CHECK(cudaMemcpy(duv, huv, sizeof huv, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dl, hl, sizeof hl, cudaMemcpyHostToDevice));
    fetch2dLayered<<<1, N>>>(t2, duv, dl, dout);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++) {
        float want = linearRef(img, hl[i], huv[i].x, huv[i].y);
        if (memcmp(&out[i], &want, 4) != 0) { printf("FAIL tex2DLayered %d: %a, want %a\n", i, out[i], want); return 1; }
    }

    // A 2D layered surface: written by one kernel, read by another, copied back by cudaMemcpy3D.
    cudaChannelFormatDesc id = cudaCreateChannelDesc<int>();
    cudaArray_t sa;
    CHECK(cudaMalloc3DArray(&sa, &id, make_cudaExtent(SW, SH, SL), cudaArrayLayered | cudaArraySurfaceLoadStore));
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = sa;
    cudaSurfaceObject_t s;
    CHECK(cudaCreateSurfaceObject(&s, &rd));
    paintLayers<<<1, dim3(SW, SH, SL)>>>(s);
    CHECK(cudaGetLastError());
    int *dread, hread[SL * SH * SW], back[SL * SH * SW];
    CHECK(cudaMalloc(&dread, sizeof hread));
    readLayers<<<1, dim3(SW, SH, SL)>>>(s, dread);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(hread, dread, sizeof hread, cudaMemcpyDeviceToHost));
    cudaMemcpy3DParms p3 = {};
    p3.srcArray = sa;
    p3.dstPtr = make_cudaPitchedPtr(back, SW * sizeof(int), SW, SH);
    p3.extent = make_cudaExtent(SW, SH, SL);
    p3.kind = cudaMemcpyDeviceToHost;
    CHECK(cudaMemcpy3D(&p3));
    for (int z = 0; z < SL; z++)
        for (int y = 0; y < SH; y++)
            for (int x = 0; x < SW; x++) {
                int i = (z * SH + y) * SW + x, want = z * 1000 + y * 10 + x;
                EXPECT(back[i] == want);
                EXPECT(hread[i] == 2 * want);
            }

    CHECK(cudaDestroySurfaceObject(s));
    CHECK(cudaDestroyTextureObject(t1));
    CHECK(cudaDestroyTextureObject(t2));
    CHECK(cudaFreeArray(a1));
    CHECK(cudaFreeArray(a2));
    CHECK(cudaFreeArray(sa));
    printf("PASS layered\n");
    return 0;
}
