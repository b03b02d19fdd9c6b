// Cubemap and cubemap layered CUDA arrays and their texture objects on the engine (docs/runtime.md,
// "Arrays, textures and surfaces"; docs/semantics.md, "Textures and surfaces"), each checked
// against a host reference written here from the CUDA Programming Guide's cubemap table, bit for bit:
//  - a cubemap of 4 x 4 float faces filled by cudaMemcpy3D (extent (4, 4, 6)), fetched with
//    texCubemap, point sampling, along directions into every face;
//  - the same cubemap with linear filtering (1.8 fixed-point weights, clamped at each face's edges);
//  - the same with seamlessCubemap and point sampling (clamped whatever the address mode says);
//  - a cubemap layered array of 2 cubemaps (depth 12) fetched with texCubemapLayered;
//  - a cubemap painted face by face by surfCubemapwrite, then fetched with texCubemap.
// The calls CUDA refuses (a cubemap whose depth is not 6, one that is not square) fail as documented.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
    printf("FAIL %s: %s\n", #x, cudaGetErrorString(e)); return 1; } } while (0)
#define EXPECT(c) do { if (!(c)) { printf("FAIL line %d: %s\n", __LINE__, #c); return 1; } } while (0)

static const int W = 4, C = 2, N = 96;

__global__ void fetchCube(cudaTextureObject_t t, const float4 *dir, float *out) {
    int i = threadIdx.x;
    out[i] = texCubemap<float>(t, dir[i].x, dir[i].y, dir[i].z);
}
__global__ void fetchCubeLayered(cudaTextureObject_t t, const float4 *dir, const int *cube, float *out) {
    int i = threadIdx.x;
    out[i] = texCubemapLayered<float>(t, dir[i].x, dir[i].y, dir[i].z, cube[i]);
}
__global__ void paintFaces(cudaSurfaceObject_t s) {
    int x = threadIdx.x, y = threadIdx.y, face = threadIdx.z;
    surfCubemapwrite(1000.0f * face + 10.0f * y + x, s, x * 4, y, face);
}

// ---- host reference (the Programming Guide's cubemap table, written independently of the engine) ----
// Face and face coordinates of direction (x, y, z); -1 where no coordinate is strictly the largest.
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
static int clampIdx(int i) { return i < 0 ? 0 : i >= W ? W - 1 : i; }
static float texel(const float *img, int layer, int x, int y) { return img[(layer * W + clampIdx(y)) * W + clampIdx(x)]; }
static float pointRef(const float *img, int layer, float u, float v) {
    return texel(img, layer, (int) floorf(u * (float) W), (int) floorf(v * (float) W));
}
static float linearRef(const float *img, int layer, float u, float v) {
    float x = u * (float) W - 0.5f, y = v * (float) W - 0.5f;
    float fx = floorf(x), fy = floorf(y);
    int a = (int) rintf((x - fx) * 256.0f), b = (int) rintf((y - fy) * 256.0f);
    int i = (int) fx, j = (int) fy;
    double s = (double) ((256 - a) * (256 - b)) * texel(img, layer, i, j) + (double) (a * (256 - b)) * texel(img, layer, i + 1, j)
             + (double) ((256 - a) * b) * texel(img, layer, i, j + 1) + (double) (a * b) * texel(img, layer, i + 1, j + 1);
    return (float) (s / 65536.0);
}

static cudaTextureObject_t texOf(cudaArray_t a, int filter) {
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = a;
    cudaTextureDesc td = {};
    td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = cudaAddressModeClamp;
    td.filterMode = (cudaTextureFilterMode) filter;
    td.readMode = cudaReadModeElementType;
    td.normalizedCoords = 1;
    cudaTextureObject_t t = 0;
    return cudaCreateTextureObject(&t, &rd, &td, nullptr) == cudaSuccess ? t : 0;
}

static int upload(cudaArray_t a, float *img, int layers) {
    cudaMemcpy3DParms p = {};
    p.srcPtr = make_cudaPitchedPtr(img, W * sizeof(float), W, W);
    p.dstArray = a;
    p.extent = make_cudaExtent(W, W, layers);
    p.kind = cudaMemcpyHostToDevice;
    return cudaMemcpy3D(&p) == cudaSuccess;
}

int main() {
    cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
    cudaArray_t bad = nullptr;
    EXPECT(cudaMalloc3DArray(&bad, &fd, make_cudaExtent(W, W, 5), cudaArrayCubemap) == cudaErrorInvalidValue);
    cudaGetLastError();
    EXPECT(cudaMalloc3DArray(&bad, &fd, make_cudaExtent(W, W + 1, 6), cudaArrayCubemap) == cudaErrorInvalidValue);
    cudaGetLastError();

    // Directions into every face, none on an edge of the cube (no tie for the largest magnitude).
    float4 hdir[N], *ddir;
    int hcube[N], *dcube;
    for (int i = 0; i < N; i++) {
        float a = 0.37f * i, b = 0.23f * i + 0.1f;
        float x = cosf(a) * cosf(b), y = sinf(b) * 1.01f, z = sinf(a) * cosf(b) * 0.99f;
        float u, v;
        if (faceOf(x, y, z, &u, &v) < 0) x += 0.001f;
        hdir[i] = make_float4(x * (1 + i % 3), y * (1 + i % 3), z * (1 + i % 3), 0.0f);
        hcube[i] = (i * 5) % C;
    }
    CHECK(cudaMalloc(&ddir, sizeof hdir));
    CHECK(cudaMalloc(&dcube, sizeof hcube));
    CHECK(cudaMemcpy(ddir, hdir, sizeof hdir, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dcube, hcube, sizeof hcube, cudaMemcpyHostToDevice));
    float *dout, out[N];
    CHECK(cudaMalloc(&dout, sizeof out));
    int seen[6] = {0};

    // A cubemap: 6 faces of W x W.
    float img[6 * W * W];
    for (int f = 0; f < 6; f++)
        for (int y = 0; y < W; y++)
            for (int x = 0; x < W; x++) img[(f * W + y) * W + x] = 100.0f * f + sinf(0.9f * x + 1.7f * y + f);
    cudaArray_t cube;
    CHECK(cudaMalloc3DArray(&cube, &fd, make_cudaExtent(W, W, 6), cudaArrayCubemap));
    cudaExtent got;
    unsigned flags;
    CHECK(cudaArrayGetInfo(nullptr, &got, &flags, cube));
    EXPECT(got.width == W && got.height == W && got.depth == 6 && flags == cudaArrayCubemap);
    EXPECT(upload(cube, img, 6));
    for (int filter = 0; filter < 2; filter++) {
        cudaTextureObject_t t = texOf(cube, filter);
        EXPECT(t != 0);
        fetchCube<<<1, N>>>(t, ddir, dout);
        CHECK(cudaGetLastError());
        CHECK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
        for (int i = 0; i < N; i++) {
            float u, v;
            int f = faceOf(hdir[i].x, hdir[i].y, hdir[i].z, &u, &v);
            seen[f]++;
            float want = filter ? linearRef(img, f, u, v) : pointRef(img, f, u, v);
            if (memcmp(&out[i], &want, 4) != 0) { printf("FAIL texCubemap filter %d, %d: %a, want %a\n", filter, i, out[i], want); return 1; }
        }
        CHECK(cudaDestroyTextureObject(t));
    }
    for (int f = 0; f < 6; f++) EXPECT(seen[f] > 0);

    // Seamless filtering with point sampling: "the address mode cudaAddressModeClamp will be applied for all
    // dimensions" (cudaCreateTextureObject), whatever addressMode says (wrap here).
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = cube;
    cudaTextureDesc td = {};
    td.addressMode[0] = td.addressMode[1] = cudaAddressModeWrap;
    td.normalizedCoords = 1;
    td.seamlessCubemap = 1;
    cudaTextureObject_t seamless = 0;
    CHECK(cudaCreateTextureObject(&seamless, &rd, &td, nullptr));
    fetchCube<<<1, N>>>(seamless, ddir, dout);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++) {
        float u, v;
        int f = faceOf(hdir[i].x, hdir[i].y, hdir[i].z, &u, &v);
        float want = pointRef(img, f, u, v);
        if (memcmp(&out[i], &want, 4) != 0) { printf("FAIL seamless point %d: %a, want %a\n", i, out[i], want); return 1; }
    }
    // A direction whose u rounds to 1.0 (s / m = 1 - 2^-24, plus 1 rounds to 2): x = 4 reads texel 3 (clamp), not 0 (wrap).
    float4 edge = make_float4(1.0f, 0.25f, -0.99999994f, 0.0f);
    float eu, ev;
    EXPECT(faceOf(edge.x, edge.y, edge.z, &eu, &ev) == 0 && eu == 1.0f);
    CHECK(cudaMemcpy(ddir, &edge, sizeof edge, cudaMemcpyHostToDevice));
    fetchCube<<<1, 1>>>(seamless, ddir, dout);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(out, dout, sizeof(float), cudaMemcpyDeviceToHost));
    float clampWant = texel(img, 0, W - 1, (int) floorf(ev * (float) W)), wrapWant = texel(img, 0, 0, (int) floorf(ev * (float) W));
    EXPECT(clampWant != wrapWant);
    if (memcmp(&out[0], &clampWant, 4) != 0) { printf("FAIL seamless point at u = 1: %a, want %a\n", out[0], clampWant); return 1; }
    CHECK(cudaMemcpy(ddir, hdir, sizeof hdir, cudaMemcpyHostToDevice));
    CHECK(cudaDestroyTextureObject(seamless));

    // A cubemap layered array of C cubemaps: layer 6k + f is face f of cubemap k.
    float imgs[C * 6 * W * W];
    for (int l = 0; l < C * 6; l++)
        for (int y = 0; y < W; y++)
            for (int x = 0; x < W; x++) imgs[(l * W + y) * W + x] = 1000.0f * l + 10.0f * y + x;
    cudaArray_t cubes;
    CHECK(cudaMalloc3DArray(&cubes, &fd, make_cudaExtent(W, W, 6 * C), cudaArrayCubemap | cudaArrayLayered));
    EXPECT(upload(cubes, imgs, 6 * C));
    cudaTextureObject_t tl = texOf(cubes, cudaFilterModePoint);
    EXPECT(tl != 0);
    fetchCubeLayered<<<1, N>>>(tl, ddir, dcube, dout);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++) {
        float u, v;
        int f = faceOf(hdir[i].x, hdir[i].y, hdir[i].z, &u, &v);
        float want = pointRef(imgs, 6 * hcube[i] + f, u, v);
        if (memcmp(&out[i], &want, 4) != 0) { printf("FAIL texCubemapLayered %d: %a, want %a\n", i, out[i], want); return 1; }
    }

    // A cubemap painted through a surface (the face is the layer), then fetched through a texture.
    cudaArray_t painted;
    CHECK(cudaMalloc3DArray(&painted, &fd, make_cudaExtent(W, W, 6), cudaArrayCubemap | cudaArraySurfaceLoadStore));
    rd.res.array.array = painted;
    cudaSurfaceObject_t s;
    CHECK(cudaCreateSurfaceObject(&s, &rd));
    paintFaces<<<1, dim3(W, W, 6)>>>(s);
    CHECK(cudaGetLastError());
    cudaTextureObject_t tp = texOf(painted, cudaFilterModePoint);
    EXPECT(tp != 0);
    fetchCube<<<1, N>>>(tp, ddir, dout);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++) {
        float u, v;
        int f = faceOf(hdir[i].x, hdir[i].y, hdir[i].z, &u, &v);
        int x = clampIdx((int) floorf(u * (float) W)), y = clampIdx((int) floorf(v * (float) W));
        float want = 1000.0f * f + 10.0f * y + x;
        if (memcmp(&out[i], &want, 4) != 0) { printf("FAIL surfCubemapwrite then texCubemap %d: %a, want %a\n", i, out[i], want); return 1; }
    }

    CHECK(cudaDestroySurfaceObject(s));
    CHECK(cudaDestroyTextureObject(tl));
    CHECK(cudaDestroyTextureObject(tp));
    CHECK(cudaFreeArray(cube));
    CHECK(cudaFreeArray(cubes));
    CHECK(cudaFreeArray(painted));
    printf("PASS cube\n");
    return 0;
}
