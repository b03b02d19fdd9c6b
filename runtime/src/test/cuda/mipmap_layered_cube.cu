// Layered and cubemap mipmapped CUDA arrays and their texture objects on the engine (docs/runtime.md,
// "Arrays, textures and surfaces"; docs/semantics.md, "Textures and surfaces"), each checked against
// a host reference written here from the documented rules, bit for bit:
//  - a 2D layered mipmapped array (8 x 4, 3 layers, 4 levels) fetched with tex2DLayeredLod and
//    tex2DLayeredGrad, point and linear, with a bias and level clamps;
//  - a 1D layered one (16 wide, 2 layers, 5 levels) fetched with tex1DLayeredLod, linear;
//  - a mipmapped cubemap (8 x 8 faces, 4 levels) fetched with texCubemapLod and texCubemapGrad (the
//    level of detail from the face coordinates' derivatives), and with seamless filtering
//    (cudaTextureDesc.seamlessCubemap: texels off a face's edge from the neighbouring face);
//  - a mipmapped cubemap layered array (2 cubemaps of 4 x 4 faces, 3 levels) with texCubemapLayeredLod.
// Each level is reached by cudaGetMipmappedArrayLevel and filled by cudaMemcpy3D, all layers at once.
// What CUDA or BarrierScope refuses fails as documented: maxAnisotropy above 1 (cudaErrorNotSupported),
// seamlessCubemap on an array that is no cubemap (cudaErrorInvalidValue), a cubemap that is not square.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
    printf("FAIL %s: %s\n", #x, cudaGetErrorString(e)); return 1; } } while (0)
#define EXPECT(c) do { if (!(c)) { printf("FAIL line %d: %s\n", __LINE__, #c); return 1; } } while (0)

static const int N = 96;

struct Query { float x, y, z, lod; float4 dx, dy; int layer; };

__global__ void layered2d(cudaTextureObject_t t, const Query *q, float *out, int grad) {
    const Query &k = q[threadIdx.x];
    out[threadIdx.x] = grad ? tex2DLayeredGrad<float>(t, k.x, k.y, k.layer, make_float2(k.dx.x, k.dx.y), make_float2(k.dy.x, k.dy.y))
                            : tex2DLayeredLod<float>(t, k.x, k.y, k.layer, k.lod);
}
__global__ void layered1d(cudaTextureObject_t t, const Query *q, float *out) {
    const Query &k = q[threadIdx.x];
    out[threadIdx.x] = tex1DLayeredLod<float>(t, k.x, k.layer, k.lod);
}
__global__ void cube(cudaTextureObject_t t, const Query *q, float *out, int grad) {
    const Query &k = q[threadIdx.x];
    out[threadIdx.x] = grad ? texCubemapGrad<float>(t, k.x, k.y, k.z, k.dx, k.dy) : texCubemapLod<float>(t, k.x, k.y, k.z, k.lod);
}
__global__ void cubeLayered(cudaTextureObject_t t, const Query *q, float *out) {
    const Query &k = q[threadIdx.x];
    out[threadIdx.x] = texCubemapLayeredLod<float>(t, k.x, k.y, k.z, k.layer, k.lod);
}

// ---- host reference (the documented rules and our documented decisions, written independently of the engine) ----
struct Mip { int w, h, layers, levels; float *img[5]; };  // h 1 for 1D; level l of (w >> l) x (h >> l), at least 1
static int ext(int e, int l) { return e >> l ? e >> l : 1; }
static float texel(const Mip &m, int l, int layer, int x, int y) {
    int w = ext(m.w, l), h = ext(m.h, l);
    x = x < 0 ? 0 : x >= w ? w - 1 : x;
    y = y < 0 ? 0 : y >= h ? h - 1 : y;
    return m.img[l][(layer * h + y) * w + x];
}
// A cubemap face's texel; with seamless filtering one off the face's edge comes from the face the cube puts there.
static int faceOf(float x, float y, float z, float *u, float *v);
static float cubeTexel(const Mip &m, int l, int layer, int x, int y, int seamless) {
    int w = ext(m.w, l);
    if (!seamless || (x >= 0 && x < w && y >= 0 && y < w)) return texel(m, l, layer, x, y);
    // The direction of the texel's centre on this face, then the cubemap table on it.
    int f = layer % 6;
    float s = (2.0f * x + 1.0f) / w - 1.0f, t = (2.0f * y + 1.0f) / w - 1.0f, p[3];
    switch (f) {  // inverse of faceOf's table: s, t on face f back to a direction with |major| = 1
    case 0: p[0] = 1, p[2] = -s, p[1] = -t; break;
    case 1: p[0] = -1, p[2] = s, p[1] = -t; break;
    case 2: p[1] = 1, p[0] = s, p[2] = t; break;
    case 3: p[1] = -1, p[0] = s, p[2] = -t; break;
    case 4: p[2] = 1, p[0] = s, p[1] = -t; break;
    default: p[2] = -1, p[0] = -s, p[1] = -t; break;
    }
    float u, v;
    int g = faceOf(p[0], p[1], p[2], &u, &v);
    return texel(m, l, layer - f + g, (int) floorf(u * w), (int) floorf(v * w));
}
static float sampleLevel(const Mip &m, int l, int layer, float u, float v, int linear, int dims, int cubeSeamless) {
    float x = u * (float) ext(m.w, l), y = v * (float) ext(m.h, l);
    int seamless = cubeSeamless > 0;
    if (!linear) return texel(m, l, layer, (int) floorf(x), dims == 1 ? 0 : (int) floorf(y));
    x -= 0.5f;
    float fx = floorf(x);
    int a = (int) rintf((x - fx) * 256.0f), i = (int) fx;
    if (dims == 1) return (float) (((double) (256 - a) * texel(m, l, layer, i, 0) + (double) a * texel(m, l, layer, i + 1, 0)) / 256.0);
    y -= 0.5f;
    float fy = floorf(y);
    int b = (int) rintf((y - fy) * 256.0f), j = (int) fy;
    double s = 0;
    for (int c = 0; c < 4; c++) {
        int hx = c & 1, hy = c >> 1, wgt = (hx ? a : 256 - a) * (hy ? b : 256 - b);
        if (wgt) s += (double) wgt * (cubeSeamless >= 0 ? cubeTexel(m, l, layer, i + hx, j + hy, seamless) : texel(m, l, layer, i + hx, j + hy));
    }
    return (float) (s / 65536.0);
}
struct Sampler { int filter, mipFilter; float bias, lo, hi; int seamless; };
// cubeSeamless: -1 for no cubemap, else 0 or 1.
static float sampleLod(const Mip &m, const Sampler &k, float lod, int layer, float u, float v, int dims, int cubeSeamless) {
    float lambda = fminf(fmaxf(lod + k.bias, k.lo), k.hi);
    lambda = fminf(fmaxf(lambda, 0.0f), (float) (m.levels - 1));
    if (!k.mipFilter) return sampleLevel(m, (int) floorf(lambda + 0.5f), layer, u, v, k.filter, dims, cubeSeamless);
    int l0 = (int) floorf(lambda), a = (int) rintf((lambda - (float) l0) * 256.0f);
    double s = 0;
    if (256 - a) s += (double) (256 - a) * sampleLevel(m, l0, layer, u, v, k.filter, dims, cubeSeamless);
    if (a) s += (double) a * sampleLevel(m, l0 + 1 < m.levels ? l0 + 1 : m.levels - 1, layer, u, v, k.filter, dims, cubeSeamless);
    return (float) (s / 256.0);
}
static float gradLod2d(const Mip &m, const Query &q) {
    double sx = ((double) q.dx.x * m.w) * ((double) q.dx.x * m.w) + ((double) q.dx.y * m.h) * ((double) q.dx.y * m.h);
    double sy = ((double) q.dy.x * m.w) * ((double) q.dy.x * m.w) + ((double) q.dy.y * m.h) * ((double) q.dy.y * m.h);
    return (float) (log(sqrt(sx > sy ? sx : sy)) / log(2.0));
}
// The Programming Guide's cubemap table: face, and (u, v) = ((s / m + 1) / 2, (t / m + 1) / 2); -1 on a tie.
static int faceOf(float x, float y, float z, float *u, float *v) {
    float ax = fabsf(x), ay = fabsf(y), az = fabsf(z), m, s, t;
    int f;
    if (ax > ay && ax > az) { f = x >= 0 ? 0 : 1; m = ax; s = x >= 0 ? -z : z; t = -y; }
    else if (ay > ax && ay > az) { f = y >= 0 ? 2 : 3; m = ay; s = x; t = y >= 0 ? z : -z; }
    else if (az > ax && az > ay) { f = z >= 0 ? 4 : 5; m = az; s = z >= 0 ? x : -x; t = -y; }
    else return -1;
    *u = (s / m + 1.0f) * 0.5f;
    *v = (t / m + 1.0f) * 0.5f;
    return f;
}
// s, t and the signed major coordinate of vector p as face f reads them (linear in p, so also of a gradient).
static void stm(int f, const float *p, double *s, double *t, double *m) {
    switch (f) {
    case 0: *s = -(double) p[2], *t = -(double) p[1], *m = p[0]; break;
    case 1: *s = p[2], *t = -(double) p[1], *m = -(double) p[0]; break;
    case 2: *s = p[0], *t = p[2], *m = p[1]; break;
    case 3: *s = p[0], *t = -(double) p[2], *m = -(double) p[1]; break;
    case 4: *s = p[0], *t = -(double) p[1], *m = p[2]; break;
    default: *s = -(double) p[0], *t = -(double) p[1], *m = -(double) p[2]; break;
    }
}
// Our decision: the face coordinates' derivatives along each gradient (chain rule), in texels of level 0, log2 of the longer.
static float gradLodCube(const Mip &m, const Query &q, int f) {
    float p[3] = {q.x, q.y, q.z}, g[2][3] = {{q.dx.x, q.dx.y, q.dx.z}, {q.dy.x, q.dy.y, q.dy.z}};
    double s, t, ma, len[2];
    stm(f, p, &s, &t, &ma);
    for (int k = 0; k < 2; k++) {
        double ds, dt, dm;
        stm(f, g[k], &ds, &dt, &dm);
        double du = (ds * ma - s * dm) / (2 * ma * ma) * m.w, dv = (dt * ma - t * dm) / (2 * ma * ma) * m.w;
        len[k] = du * du + dv * dv;
    }
    return (float) (log(sqrt(len[0] > len[1] ? len[0] : len[1])) / log(2.0));
}

// ---- device side ----
static int fill(cudaMipmappedArray_t a, Mip &m, unsigned flags, int seed) {
    for (int l = 0; l < m.levels; l++) {
        cudaArray_t level;
        if (cudaGetMipmappedArrayLevel(&level, a, l) != cudaSuccess) return 0;
        int w = ext(m.w, l), h = ext(m.h, l);
        cudaExtent e;
        unsigned got;
        if (cudaArrayGetInfo(nullptr, &e, &got, level) != cudaSuccess) return 0;
        if ((int) e.width != w || (int) e.depth != m.layers || got != flags) { printf("FAIL level %d's info\n", l); return 0; }
        m.img[l] = new float[w * h * m.layers];
        for (int i = 0; i < w * h * m.layers; i++) m.img[l][i] = 1000.0f * l + sinf(0.7f * i + seed + l);
        cudaMemcpy3DParms p = {};
        p.srcPtr = make_cudaPitchedPtr(m.img[l], w * sizeof(float), w, h);
        p.dstArray = level;
        p.extent = make_cudaExtent(w, h, m.layers);
        p.kind = cudaMemcpyHostToDevice;
        if (cudaMemcpy3D(&p) != cudaSuccess) return 0;
    }
    return 1;
}
static cudaTextureObject_t texOf(cudaMipmappedArray_t a, const Sampler &k) {
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeMipmappedArray;
    rd.res.mipmap.mipmap = a;
    cudaTextureDesc td = {};
    td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = cudaAddressModeClamp;
    td.filterMode = (cudaTextureFilterMode) k.filter;
    td.mipmapFilterMode = (cudaTextureFilterMode) k.mipFilter;
    td.mipmapLevelBias = k.bias;
    td.minMipmapLevelClamp = k.lo;
    td.maxMipmapLevelClamp = k.hi;
    td.seamlessCubemap = k.seamless;
    td.normalizedCoords = 1;
    cudaTextureObject_t t = 0;
    return cudaCreateTextureObject(&t, &rd, &td, nullptr) == cudaSuccess ? t : 0;
}
static Query hq[N], *dq;
static float out[N], *dout;
static int fetched(const char *what, const Sampler &k, float (*want)(int, const Sampler &)) {
    if (cudaGetLastError() != cudaSuccess || cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost) != cudaSuccess) {
        printf("FAIL %s: the launch failed\n", what);
        return 0;
    }
    for (int i = 0; i < N; i++) {
        float w = want(i, k);
        if (memcmp(&out[i], &w, 4) != 0) { printf("FAIL %s filter %d/%d, %d: %a, want %a\n", what, k.filter, k.mipFilter, i, out[i], w); return 0; }
    }
    return 1;
}
static Mip L2 = {8, 4, 3, 4, {}}, L1 = {16, 1, 2, 5, {}}, CB = {8, 8, 6, 4, {}}, CL = {4, 4, 12, 3, {}};
static float want2d(int i, const Sampler &k) { return sampleLod(L2, k, hq[i].lod, hq[i].layer, hq[i].x, hq[i].y, 2, -1); }
static float want2dGrad(int i, const Sampler &k) { return sampleLod(L2, k, gradLod2d(L2, hq[i]), hq[i].layer, hq[i].x, hq[i].y, 2, -1); }
static float want1d(int i, const Sampler &k) { return sampleLod(L1, k, hq[i].lod, hq[i].layer, hq[i].x, 0, 1, -1); }
static float wantCube(int i, const Sampler &k) {
    float u, v;
    int f = faceOf(hq[i].x, hq[i].y, hq[i].z, &u, &v);
    return sampleLod(CB, k, hq[i].lod, f, u, v, 2, k.seamless);
}
static float wantCubeGrad(int i, const Sampler &k) {
    float u, v;
    int f = faceOf(hq[i].x, hq[i].y, hq[i].z, &u, &v);
    return sampleLod(CB, k, gradLodCube(CB, hq[i], f), f, u, v, 2, 0);
}
static float wantCubeLayered(int i, const Sampler &k) {
    float u, v;
    int f = faceOf(hq[i].x, hq[i].y, hq[i].z, &u, &v);
    return sampleLod(CL, k, hq[i].lod, 6 * hq[i].layer + f, u, v, 2, 0);
}

int main() {
    cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
    cudaMipmappedArray_t bad;
    EXPECT(cudaMallocMipmappedArray(&bad, &fd, make_cudaExtent(8, 4, 6), 2, cudaArrayCubemap) == cudaErrorInvalidValue);
    cudaGetLastError();
    cudaMipmappedArray_t l2, l1, cb, cl;
    CHECK(cudaMallocMipmappedArray(&l2, &fd, make_cudaExtent(8, 4, 3), 9, cudaArrayLayered));  // clamped to 4 levels: depth is layers
    CHECK(cudaMallocMipmappedArray(&l1, &fd, make_cudaExtent(16, 0, 2), 5, cudaArrayLayered));
    CHECK(cudaMallocMipmappedArray(&cb, &fd, make_cudaExtent(8, 8, 6), 4, cudaArrayCubemap));
    CHECK(cudaMallocMipmappedArray(&cl, &fd, make_cudaExtent(4, 4, 12), 3, cudaArrayCubemap | cudaArrayLayered));
    cudaArray_t past;
    EXPECT(cudaGetMipmappedArrayLevel(&past, l2, 4) == cudaErrorInvalidValue);
    cudaGetLastError();
    EXPECT(fill(l2, L2, cudaArrayLayered, 1) && fill(l1, L1, cudaArrayLayered, 2) && fill(cb, CB, cudaArrayCubemap, 3)
           && fill(cl, CL, cudaArrayCubemap | cudaArrayLayered, 4));

    // Refused: anisotropic filtering (no documented footprint) and seamless filtering of an array that is no cubemap.
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeMipmappedArray;
    rd.res.mipmap.mipmap = l2;
    cudaTextureDesc td = {};
    td.normalizedCoords = 1;
    td.maxAnisotropy = 4;
    cudaTextureObject_t refused = 0;
    EXPECT(cudaCreateTextureObject(&refused, &rd, &td, nullptr) == cudaErrorNotSupported);
    cudaGetLastError();
    td.maxAnisotropy = 0;
    td.seamlessCubemap = 1;
    EXPECT(cudaCreateTextureObject(&refused, &rd, &td, nullptr) == cudaErrorInvalidValue);
    cudaGetLastError();

    CHECK(cudaMalloc(&dq, sizeof hq));
    CHECK(cudaMalloc(&dout, sizeof out));
    const Sampler cases[] = {{cudaFilterModePoint, cudaFilterModePoint, 0.0f, 0.0f, 8.0f, 0},
                             {cudaFilterModeLinear, cudaFilterModeLinear, 0.25f, 0.5f, 2.5f, 0}};

    // Layered: texel coordinates inside, layers in turn, levels of detail across every level.
    for (int i = 0; i < N; i++) {
        float g = 0.02f + 0.011f * i;
        hq[i] = {0.03f + 0.0099f * i, 0.97f - 0.0097f * i, 0, -1.03f + 0.057f * i, make_float4(g * (i % 3), g * 0.5f, 0, 0),
                 make_float4(-g * 0.25f, g * (i % 2 ? 1.0f : 0.3f), 0, 0), i % 3};
    }
    CHECK(cudaMemcpy(dq, hq, sizeof hq, cudaMemcpyHostToDevice));
    for (const Sampler &k : cases) {
        cudaTextureObject_t t = texOf(l2, k);
        EXPECT(t != 0);
        layered2d<<<1, N>>>(t, dq, dout, 0);
        EXPECT(fetched("tex2DLayeredLod", k, want2d));
        layered2d<<<1, N>>>(t, dq, dout, 1);
        EXPECT(fetched("tex2DLayeredGrad", k, want2dGrad));
        CHECK(cudaDestroyTextureObject(t));
    }
    for (int i = 0; i < N; i++) hq[i].layer = i % 2;
    CHECK(cudaMemcpy(dq, hq, sizeof hq, cudaMemcpyHostToDevice));
    cudaTextureObject_t t1 = texOf(l1, cases[1]);
    EXPECT(t1 != 0);
    layered1d<<<1, N>>>(t1, dq, dout);
    EXPECT(fetched("tex1DLayeredLod", cases[1], want1d));

    // Cubemaps: directions into every face, none on an edge of the cube; gradients of several lengths.
    int seen[6] = {0};
    for (int i = 0; i < N; i++) {
        float a = 0.37f * i, b = 0.23f * i + 0.1f, u, v;
        float x = cosf(a) * cosf(b), y = sinf(b) * 1.01f, z = sinf(a) * cosf(b) * 0.99f;
        if (faceOf(x, y, z, &u, &v) < 0) x += 0.001f;
        float r = 1.0f + i % 3, g = 0.01f + 0.013f * i;
        hq[i] = {x * r, y * r, z * r, -0.8f + 0.041f * i, make_float4(g, -0.5f * g, 0.3f * g, 0), make_float4(0.2f * g, g * (i % 2), -g, 0), i % 2};
        seen[faceOf(hq[i].x, hq[i].y, hq[i].z, &u, &v)]++;
    }
    for (int f = 0; f < 6; f++) EXPECT(seen[f] > 0);
    CHECK(cudaMemcpy(dq, hq, sizeof hq, cudaMemcpyHostToDevice));
    for (const Sampler &k : cases) {
        cudaTextureObject_t t = texOf(cb, k);
        EXPECT(t != 0);
        cube<<<1, N>>>(t, dq, dout, 0);
        EXPECT(fetched("texCubemapLod", k, wantCube));
        cube<<<1, N>>>(t, dq, dout, 1);
        EXPECT(fetched("texCubemapGrad", k, wantCubeGrad));
        CHECK(cudaDestroyTextureObject(t));
    }
    cudaTextureObject_t tl = texOf(cl, cases[0]);
    EXPECT(tl != 0);
    cubeLayered<<<1, N>>>(tl, dq, dout);
    EXPECT(fetched("texCubemapLayeredLod", cases[0], wantCubeLayered));

    // Seamless: directions whose footprint crosses one face edge (one face coordinate near an edge, the other
    // central, so no footprint reaches a corner of the cube, which the engine refuses); levels 0 to 2 (8 to 2 wide).
    for (int i = 0; i < N; i++) {
        float p[3], edge = (i & 1 ? -1.0f : 1.0f) * (0.86f + 0.0013f * i), mid = -0.35f + 0.0073f * i;
        int axis = i % 3, major = (i / 3) % 2 ? -1 : 1;
        p[axis] = 2.0f * major, p[(axis + 1) % 3] = 2.0f * ((i / 6) % 2 ? edge : mid), p[(axis + 2) % 3] = 2.0f * ((i / 6) % 2 ? mid : edge);
        hq[i].x = p[0], hq[i].y = p[1], hq[i].z = p[2];
        hq[i].lod = -0.5f + 0.03f * i;
    }
    CHECK(cudaMemcpy(dq, hq, sizeof hq, cudaMemcpyHostToDevice));
    const Sampler seamless = {cudaFilterModeLinear, cudaFilterModeLinear, 0.0f, 0.0f, 2.0f, 1};
    cudaTextureObject_t ts = texOf(cb, seamless);
    EXPECT(ts != 0);
    cube<<<1, N>>>(ts, dq, dout, 0);
    EXPECT(fetched("texCubemapLod seamless", seamless, wantCube));
    Sampler clamped = seamless;
    clamped.seamless = 0;
    int differ = 0;  // the reference tells the two apart: most footprints cross an edge
    for (int i = 0; i < N; i++) differ += wantCube(i, clamped) != wantCube(i, seamless);
    EXPECT(differ > N / 2);

    CHECK(cudaDestroyTextureObject(t1));
    CHECK(cudaDestroyTextureObject(tl));
    CHECK(cudaDestroyTextureObject(ts));
    CHECK(cudaFreeMipmappedArray(l2));
    CHECK(cudaFreeMipmappedArray(l1));
    CHECK(cudaFreeMipmappedArray(cb));
    CHECK(cudaFreeMipmappedArray(cl));
    printf("PASS mipmap_layered_cube\n");
    return 0;
}
