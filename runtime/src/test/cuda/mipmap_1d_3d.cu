// 1D and 3D mipmapped CUDA arrays on the engine (docs/semantics.md, "Textures and surfaces"),
// checked against a host reference written here from the documented rules, bit for bit:
//  - a 1D float mipmapped array of 16 texels (5 levels: 16, 8, 4, 2, 1), each level filled by
//    cudaMemcpy2DToArray, fetched with tex1DGrad (the level of detail from one-element gradients)
//    and linear filtering between and within levels;
//  - a 3D float mipmapped array of 4 x 4 x 2 (3 levels: 4x4x2, 2x2x1, 1x1x1: depth halves to at
//    least 1), each level filled by cudaMemcpy3D, fetched with tex3DLod, point sampling and point
//    mipmap filtering.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
    printf("FAIL %s: %s\n", #x, cudaGetErrorString(e)); return 1; } } while (0)
#define EXPECT(c) do { if (!(c)) { printf("FAIL line %d: %s\n", __LINE__, #c); return 1; } } while (0)

static const int W1 = 16, L1 = 5, W3 = 4, H3 = 4, D3 = 2, L3 = 3, N = 96;

__global__ void fetch1dGrad(cudaTextureObject_t t, const float4 *q, float *out) {
    int i = threadIdx.x;
    out[i] = tex1DGrad<float>(t, q[i].x, q[i].y, q[i].z);
}
__global__ void fetch3dLod(cudaTextureObject_t t, const float4 *q, const float *lod, float *out) {
    int i = threadIdx.x;
    out[i] = tex3DLod<float>(t, q[i].x, q[i].y, q[i].z, lod[i]);
}

// ---- host reference ----
static float line[L1][W1];
static float vol[L3][W3 * H3 * D3];
static int ext(int e, int l) { return e >> l ? e >> l : 1; }
static int cl(int i, int n) { return i < 0 ? 0 : i >= n ? n - 1 : i; }
static float line1(int l, int x) { return line[l][cl(x, ext(W1, l))]; }
static float lin1(int l, float u) {
    float x = u * (float) ext(W1, l) - 0.5f, fx = floorf(x);
    int a = (int) rintf((x - fx) * 256.0f), i = (int) fx;
    return (float) (((double) (256 - a) * line1(l, i) + (double) a * line1(l, i + 1)) / 256.0);
}
static float grad1(float u, float dx, float dy) {
    double sx = ((double) dx * W1) * ((double) dx * W1), sy = ((double) dy * W1) * ((double) dy * W1);
    float lambda = (float) (log(sqrt(sx > sy ? sx : sy)) / log(2.0));
    lambda = fminf(fmaxf(lambda, 0.0f), 100.0f);  // bias 0, clamps [0, 100]
    lambda = fminf(fmaxf(lambda, 0.0f), (float) (L1 - 1));
    int l0 = (int) floorf(lambda), a = (int) rintf((lambda - (float) l0) * 256.0f);
    double s = 0;
    if (256 - a) s += (double) (256 - a) * lin1(l0, u);
    if (a) s += (double) a * lin1(l0 + 1 < L1 ? l0 + 1 : L1 - 1, u);
    return (float) (s / 256.0);
}
static float point3(float u, float v, float w, float lod) {
    float lambda = fminf(fmaxf(lod, 0.0f), 100.0f);
    lambda = fminf(fmaxf(lambda, 0.0f), (float) (L3 - 1));
    int l = (int) floorf(lambda + 0.5f), w_ = ext(W3, l), h = ext(H3, l), d = ext(D3, l);
    int x = cl((int) floorf(u * (float) w_), w_), y = cl((int) floorf(v * (float) h), h), z = cl((int) floorf(w * (float) d), d);
    return vol[l][(z * h + y) * w_ + x];
}

static cudaTextureObject_t texOf(cudaMipmappedArray_t m, int filter) {
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeMipmappedArray;
    rd.res.mipmap.mipmap = m;
    cudaTextureDesc td = {};
    td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = cudaAddressModeClamp;
    td.filterMode = (cudaTextureFilterMode) filter;
    td.mipmapFilterMode = (cudaTextureFilterMode) filter;
    td.maxMipmapLevelClamp = 100.0f;
    td.readMode = cudaReadModeElementType;
    td.normalizedCoords = 1;
    cudaTextureObject_t t = 0;
    return cudaCreateTextureObject(&t, &rd, &td, nullptr) == cudaSuccess ? t : 0;
}

int main() {
    cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
    float4 hq[N], *dq;
    float hlod[N], *dlod, out[N], *dout;
    CHECK(cudaMalloc(&dq, sizeof hq));
    CHECK(cudaMalloc(&dlod, sizeof hlod));
    CHECK(cudaMalloc(&dout, sizeof out));

    // 1D: 16 texels, 5 levels.
    cudaMipmappedArray_t m1;
    CHECK(cudaMallocMipmappedArray(&m1, &fd, make_cudaExtent(W1, 0, 0), L1));
    for (int l = 0; l < L1; l++) {
        cudaArray_t a;
        CHECK(cudaGetMipmappedArrayLevel(&a, m1, l));
        for (int x = 0; x < ext(W1, l); x++) line[l][x] = 10.0f * l + sinf(0.6f * x + l);
        CHECK(cudaMemcpy2DToArray(a, 0, 0, line[l], ext(W1, l) * sizeof(float), ext(W1, l) * sizeof(float), 1, cudaMemcpyHostToDevice));
    }
    cudaTextureObject_t t1 = texOf(m1, cudaFilterModeLinear);
    EXPECT(t1 != 0);
    for (int i = 0; i < N; i++) hq[i] = make_float4(-0.05f + 0.0119f * i, 0.003f * (i % 7) * (i % 5), 0.0021f * (i % 11) * (i % 4), 0);
    CHECK(cudaMemcpy(dq, hq, sizeof hq, cudaMemcpyHostToDevice));
    fetch1dGrad<<<1, N>>>(t1, dq, dout);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++) {
        float want = grad1(hq[i].x, hq[i].y, hq[i].z);
        if (memcmp(&out[i], &want, 4) != 0) { printf("FAIL tex1DGrad %d: %a, want %a\n", i, out[i], want); return 1; }
    }

    // 3D: 4 x 4 x 2, 3 levels.
    cudaMipmappedArray_t m3;
    CHECK(cudaMallocMipmappedArray(&m3, &fd, make_cudaExtent(W3, H3, D3), L3));
    for (int l = 0; l < L3; l++) {
        cudaArray_t a;
        CHECK(cudaGetMipmappedArrayLevel(&a, m3, l));
        int w = ext(W3, l), h = ext(H3, l), d = ext(D3, l);
        for (int i = 0; i < w * h * d; i++) vol[l][i] = 1000.0f * l + 7.0f * i;
        cudaMemcpy3DParms p = {};
        p.srcPtr = make_cudaPitchedPtr(vol[l], w * sizeof(float), w, h);
        p.dstArray = a;
        p.extent = make_cudaExtent(w, h, d);
        p.kind = cudaMemcpyHostToDevice;
        CHECK(cudaMemcpy3D(&p));
    }
    cudaTextureObject_t t3 = texOf(m3, cudaFilterModePoint);
    EXPECT(t3 != 0);
    for (int i = 0; i < N; i++) {
        hq[i] = make_float4(0.013f * i, 1.0f - 0.0107f * i, 0.0097f * ((i * 7) % N), 0);
        hlod[i] = -0.6f + 0.037f * i;
    }
    CHECK(cudaMemcpy(dq, hq, sizeof hq, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dlod, hlod, sizeof hlod, cudaMemcpyHostToDevice));
    fetch3dLod<<<1, N>>>(t3, dq, dlod, dout);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++) {
        float want = point3(hq[i].x, hq[i].y, hq[i].z, hlod[i]);
        if (memcmp(&out[i], &want, 4) != 0) { printf("FAIL tex3DLod %d: %a, want %a\n", i, out[i], want); return 1; }
    }
    CHECK(cudaDestroyTextureObject(t1));
    CHECK(cudaDestroyTextureObject(t3));
    CHECK(cudaFreeMipmappedArray(m1));
    CHECK(cudaFreeMipmappedArray(m3));
    printf("PASS mipmap_1d_3d\n");
    return 0;
}
