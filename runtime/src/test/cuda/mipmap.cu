// A mipmapped CUDA array and its texture objects on the engine (docs/runtime.md, "Arrays, textures
// and surfaces"; docs/semantics.md, "Textures and surfaces"), checked against a host reference
// written here from the documented rules, bit for bit:
//  - cudaMallocMipmappedArray of an 8 x 4 float array, 10 levels asked and clamped to 4
//    (8 x 4, 4 x 2, 2 x 1, 1 x 1); each level reached by cudaGetMipmappedArrayLevel and filled by
//    cudaMemcpy2DToArray;
//  - tex2DLod with point filtering and point mipmap filtering (the nearest level), levels of
//    detail below 0 and past the last level;
//  - tex2DLod and tex2DGrad with linear filtering, linear mipmap filtering (two levels blended by
//    a 1.8 fixed-point weight), a level bias and min/max level clamps.
// The calls CUDA refuses (a level past the last; freeing a level with cudaFreeArray) fail as documented.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
    printf("FAIL %s: %s\n", #x, cudaGetErrorString(e)); return 1; } } while (0)
#define EXPECT(c) do { if (!(c)) { printf("FAIL line %d: %s\n", __LINE__, #c); return 1; } } while (0)

static const int W = 8, H = 4, LEVELS = 4, N = 128;

struct Query { float u, v, lod, dxu, dxv, dyu, dyv; };

__global__ void fetchLod(cudaTextureObject_t t, const Query *q, float *out) {
    int i = threadIdx.x;
    out[i] = tex2DLod<float>(t, q[i].u, q[i].v, q[i].lod);
}
__global__ void fetchGrad(cudaTextureObject_t t, const Query *q, float *out) {
    int i = threadIdx.x;
    out[i] = tex2DGrad<float>(t, q[i].u, q[i].v, make_float2(q[i].dxu, q[i].dxv), make_float2(q[i].dyu, q[i].dyv));
}

// ---- host reference (the documented rules, written independently of the engine) ----
static float img[LEVELS][W * H];
static int lw(int l) { return W >> l ? W >> l : 1; }
static int lh(int l) { return H >> l ? H >> l : 1; }
static float texel(int l, int x, int y) {
    x = x < 0 ? 0 : x >= lw(l) ? lw(l) - 1 : x;
    y = y < 0 ? 0 : y >= lh(l) ? lh(l) - 1 : y;
    return img[l][y * lw(l) + x];
}
static float sampleLevel(int l, float u, float v, int linear) {
    float x = u * (float) lw(l), y = v * (float) lh(l);
    if (!linear) return texel(l, (int) floorf(x), (int) floorf(y));
    x -= 0.5f, y -= 0.5f;
    float fx = floorf(x), fy = floorf(y);
    int a = (int) rintf((x - fx) * 256.0f), b = (int) rintf((y - fy) * 256.0f);
    int i = (int) fx, j = (int) fy;
    double s = (double) ((256 - a) * (256 - b)) * texel(l, i, j) + (double) (a * (256 - b)) * texel(l, i + 1, j)
             + (double) ((256 - a) * b) * texel(l, i, j + 1) + (double) (a * b) * texel(l, i + 1, j + 1);
    return (float) (s / 65536.0);
}
static float sampleLod(float lod, float bias, float lo, float hi, int linearMip, float u, float v, int linear) {
    float lambda = lod + bias;
    lambda = fminf(fmaxf(lambda, lo), hi);
    lambda = fminf(fmaxf(lambda, 0.0f), (float) (LEVELS - 1));
    if (!linearMip) return sampleLevel((int) floorf(lambda + 0.5f), u, v, linear);
    int l0 = (int) floorf(lambda), a = (int) rintf((lambda - (float) l0) * 256.0f);
    double s = 0;
    if (256 - a) s += (double) (256 - a) * sampleLevel(l0, u, v, linear);
    if (a) s += (double) a * sampleLevel(l0 + 1 < LEVELS ? l0 + 1 : LEVELS - 1, u, v, linear);
    return (float) (s / 256.0);
}
static float gradLod(const Query &q) {
    double sx = ((double) q.dxu * W) * ((double) q.dxu * W) + ((double) q.dxv * H) * ((double) q.dxv * H);
    double sy = ((double) q.dyu * W) * ((double) q.dyu * W) + ((double) q.dyv * H) * ((double) q.dyv * H);
    return (float) (log(sqrt(sx > sy ? sx : sy)) / log(2.0));
}

static cudaTextureObject_t texOf(cudaMipmappedArray_t m, int filter, int mipFilter, float bias, float lo, float hi) {
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeMipmappedArray;
    rd.res.mipmap.mipmap = m;
    cudaTextureDesc td = {};
    td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
    td.filterMode = (cudaTextureFilterMode) filter;
    td.mipmapFilterMode = (cudaTextureFilterMode) mipFilter;
    td.mipmapLevelBias = bias;
    td.minMipmapLevelClamp = lo;
    td.maxMipmapLevelClamp = hi;
    td.readMode = cudaReadModeElementType;
    td.normalizedCoords = 1;
    cudaTextureObject_t t = 0;
    return cudaCreateTextureObject(&t, &rd, &td, nullptr) == cudaSuccess ? t : 0;
}

int main() {
    cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
    cudaMipmappedArray_t m;
    CHECK(cudaMallocMipmappedArray(&m, &fd, make_cudaExtent(W, H, 0), 10));
    cudaArray_t level;
    EXPECT(cudaGetMipmappedArrayLevel(&level, m, LEVELS) == cudaErrorInvalidValue);  // 10 asked, 4 made
    cudaGetLastError();
    for (int l = 0; l < LEVELS; l++) {
        CHECK(cudaGetMipmappedArrayLevel(&level, m, l));
        cudaExtent ext;
        CHECK(cudaArrayGetInfo(nullptr, &ext, nullptr, level));
        EXPECT((int) ext.width == lw(l) && (int) ext.height == lh(l) && ext.depth == 0);
        for (int i = 0; i < lw(l) * lh(l); i++) img[l][i] = 100.0f * l + sinf(1.3f * i + l);
        CHECK(cudaMemcpy2DToArray(level, 0, 0, img[l], lw(l) * sizeof(float), lw(l) * sizeof(float), lh(l), cudaMemcpyHostToDevice));
    }
    EXPECT(cudaFreeArray(level) == cudaErrorInvalidValue);  // a level is freed with its mipmapped array
    cudaGetLastError();

    Query hq[N], *dq;
    for (int i = 0; i < N; i++) {
        float g = 0.02f + 0.011f * i;
        hq[i] = {0.03f + 0.0071f * i, 0.97f - 0.0069f * i, -1.03f + 0.047f * i, g * (i % 3), g * 0.5f, -g * 0.25f, g * (i % 2 ? 1.0f : 0.3f)};
    }
    CHECK(cudaMalloc(&dq, sizeof hq));
    CHECK(cudaMemcpy(dq, hq, sizeof hq, cudaMemcpyHostToDevice));
    float *dout, out[N];
    CHECK(cudaMalloc(&dout, sizeof out));

    struct Case { int filter, mipFilter; float bias, lo, hi; } cases[] = {
        {cudaFilterModePoint, cudaFilterModePoint, 0.0f, 0.0f, 3.0f},
        {cudaFilterModeLinear, cudaFilterModeLinear, 0.25f, 0.5f, 2.5f},
    };
    for (const Case &k : cases) {
        cudaTextureObject_t t = texOf(m, k.filter, k.mipFilter, k.bias, k.lo, k.hi);
        EXPECT(t != 0);
        for (int grad = 0; grad < 2; grad++) {
            if (grad) fetchGrad<<<1, N>>>(t, dq, dout);
            else fetchLod<<<1, N>>>(t, dq, dout);
            CHECK(cudaGetLastError());
            CHECK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
            for (int i = 0; i < N; i++) {
                float want = sampleLod(grad ? gradLod(hq[i]) : hq[i].lod, k.bias, k.lo, k.hi, k.mipFilter, hq[i].u, hq[i].v, k.filter);
                if (memcmp(&out[i], &want, 4) != 0) {
                    printf("FAIL %s filter %d/%d, %d: %a, want %a\n", grad ? "tex2DGrad" : "tex2DLod", k.filter, k.mipFilter, i, out[i], want);
                    return 1;
                }
            }
        }
        CHECK(cudaDestroyTextureObject(t));
    }
    CHECK(cudaFreeMipmappedArray(m));
    printf("PASS mipmap\n");
    return 0;
}
