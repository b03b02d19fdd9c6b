// CUDA arrays, texture objects and surface objects on the engine (docs/runtime.md, "Arrays,
// textures and surfaces"; docs/semantics.md, "Textures and surfaces"), each checked against a
// host reference written here from the documented rules, bit for bit:
//  - a 2D float array filled by cudaMemcpy2DToArray (padded host rows), fetched with linear
//    filtering, clamp and normalized coordinates: the weights are the hardware's 1.8 fixed point
//    (CUDA C++ Programming Guide, "Texture Fetching", linear filtering);
//  - a uchar4 array fetched with point sampling, wrap and normalized-float read mode, and again
//    as integers with border addressing;
//  - a 3D array filled by cudaMemcpy3D, point-sampled; tex1Dfetch of linear memory;
//  - a surface written by one kernel and read (zero and clamp boundary modes) by another, then
//    read back by cudaMemcpy2DFromArray(Async).
#include <cmath>
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

// cudaMemcpyArrayToArray and cudaMemcpyFromArray are deprecated but still exported: checked on purpose.
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
    printf("FAIL %s: %s\n", #x, cudaGetErrorString(e)); return 1; } } while (0)
#define EXPECT(c) do { if (!(c)) { printf("FAIL line %d: %s\n", __LINE__, #c); return 1; } } while (0)

static const int W = 5, H = 4, N = 64;

__global__ void fetch2d(cudaTextureObject_t t, const float2 *uv, float *out) {
    int i = threadIdx.x;
    out[i] = tex2D<float>(t, uv[i].x, uv[i].y);
}
__global__ void fetch4(cudaTextureObject_t t, const float2 *uv, float4 *out) {
    int i = threadIdx.x;
    out[i] = tex2D<float4>(t, uv[i].x, uv[i].y);
}
__global__ void gather(cudaTextureObject_t t, const float2 *uv, float4 *out) {
    int i = threadIdx.x;
    out[i] = tex2Dgather<float4>(t, uv[i].x, uv[i].y, 2);
}
__global__ void fetchInt(cudaTextureObject_t t, const float2 *uv, uchar4 *out) {
    int i = threadIdx.x;
    out[i] = tex2D<uchar4>(t, uv[i].x, uv[i].y);
}
__global__ void fetch3d(cudaTextureObject_t t, float *out) {
    int x = threadIdx.x, y = threadIdx.y, z = threadIdx.z;
    out[(z * 3 + y) * 4 + x] = tex3D<float>(t, x + 0.5f, y + 0.5f, z + 0.5f);
}
__global__ void fetchLinear(cudaTextureObject_t t, int *out) { out[threadIdx.x] = tex1Dfetch<int>(t, threadIdx.x); }
__global__ void paint(cudaSurfaceObject_t s) {
    int x = threadIdx.x, y = threadIdx.y;
    surf2Dwrite(x * 100 + y, s, x * 4, y);
}
__global__ void readBack(cudaSurfaceObject_t s, int *out) {
    int x = threadIdx.x, y = threadIdx.y;
    out[y * 6 + x] = surf2Dread<int>(s, x * 4, y) + 1;
    if (x == 0 && y == 0) {
        out[18] = surf2Dread<int>(s, 6 * 4, 0, cudaBoundaryModeZero);   // past the row: 0
        out[19] = surf2Dread<int>(s, 9 * 4, 7, cudaBoundaryModeClamp);  // clamped to (5, 2)
    }
}

// ---- host reference (the documented rules, written independently of the engine) ----
static float texel2d(const float *img, int x, int y) {
    x = x < 0 ? 0 : x >= W ? W - 1 : x;  // clamp
    y = y < 0 ? 0 : y >= H ? H - 1 : y;
    return img[y * W + x];
}
static float linearRef(const float *img, float u, float v) {
    float x = u * (float) W - 0.5f, y = v * (float) H - 0.5f;
    float fx = floorf(x), fy = floorf(y);
    int a = (int) rintf((x - fx) * 256.0f), b = (int) rintf((y - fy) * 256.0f);
    int i = (int) fx, j = (int) fy;
    double s = (double) ((256 - a) * (256 - b)) * texel2d(img, i, j) + (double) (a * (256 - b)) * texel2d(img, i + 1, j)
             + (double) ((256 - a) * b) * texel2d(img, i, j + 1) + (double) (a * b) * texel2d(img, i + 1, j + 1);
    return (float) (s / 65536.0);
}
static int wrapIdx(int i, int n) { int m = i % n; return m < 0 ? m + n : m; }

int main() {
    // 2D float array from padded host rows.
    float img[H * W], padded[H * 8];
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) img[y * W + x] = padded[y * 8 + x] = (float) (x * x + 3 * y) + 0.25f * (float) ((x + y) % 3);
    cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
    cudaArray_t fa;
    CHECK(cudaMallocArray(&fa, &fd, W, H));
    CHECK(cudaMemcpy2DToArray(fa, 0, 0, padded, 8 * sizeof(float), W * sizeof(float), H, cudaMemcpyHostToDevice));
    cudaChannelFormatDesc got;
    cudaExtent ext;
    unsigned flags = 99;
    CHECK(cudaArrayGetInfo(&got, &ext, &flags, fa));
    EXPECT(got.x == 32 && got.f == cudaChannelFormatKindFloat && ext.width == W && ext.height == H && ext.depth == 0 && flags == 0);

    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = fa;
    cudaTextureDesc td = {};
    td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
    td.filterMode = cudaFilterModeLinear;
    td.readMode = cudaReadModeElementType;
    td.normalizedCoords = 1;
    cudaTextureObject_t lin;
    CHECK(cudaCreateTextureObject(&lin, &rd, &td, nullptr));
    cudaResourceDesc back;
    CHECK(cudaGetTextureObjectResourceDesc(&back, lin));
    EXPECT(back.resType == cudaResourceTypeArray && back.res.array.array == fa);

    float2 uv[N];
    for (int i = 0; i < N; i++) uv[i] = make_float2(-0.2f + 1.5f * (float) i / N, 1.2f - 1.4f * (float) ((i * 7) % N) / N);
    float2 *duv;
    CHECK(cudaMalloc(&duv, sizeof uv));
    CHECK(cudaMemcpy(duv, uv, sizeof uv, cudaMemcpyHostToDevice));
    float *dout;
    CHECK(cudaMalloc(&dout, N * sizeof(float)));
    fetch2d<<<1, N>>>(lin, duv, dout);
    CHECK(cudaGetLastError());
    float out[N];
    CHECK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++) {
        float ref = linearRef(img, uv[i].x, uv[i].y);
        if (memcmp(&ref, &out[i], 4) != 0) { printf("FAIL linear %d: (%g, %g) got %.9g want %.9g\n", i, uv[i].x, uv[i].y, out[i], ref); return 1; }
    }

    // uchar4: point sampling, wrap, normalized float; then integers with border.
    const int CW = 4, CH = 3;
    uchar4 cols[CH * CW];
    for (int i = 0; i < CH * CW; i++) cols[i] = make_uchar4(i * 20, 255 - i * 7, i * i, 128 + i);
    cudaChannelFormatDesc cd = cudaCreateChannelDesc<uchar4>();
    cudaArray_t ca;
    CHECK(cudaMallocArray(&ca, &cd, CW, CH, cudaArrayTextureGather));
    CHECK(cudaMemcpy2DToArrayAsync(ca, 0, 0, cols, CW * sizeof(uchar4), CW * sizeof(uchar4), CH, cudaMemcpyHostToDevice, 0));
    rd.res.array.array = ca;
    td.addressMode[0] = td.addressMode[1] = cudaAddressModeWrap;
    td.filterMode = cudaFilterModePoint;
    td.readMode = cudaReadModeNormalizedFloat;
    cudaTextureObject_t pt;
    CHECK(cudaCreateTextureObject(&pt, &rd, &td, nullptr));
    float4 *d4;
    CHECK(cudaMalloc(&d4, N * sizeof(float4)));
    fetch4<<<1, N>>>(pt, duv, d4);
    CHECK(cudaGetLastError());
    float4 o4[N];
    CHECK(cudaMemcpy(o4, d4, sizeof o4, cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++) {
        int x = wrapIdx((int) floorf(uv[i].x * (float) CW), CW), y = wrapIdx((int) floorf(uv[i].y * (float) CH), CH);
        uchar4 c = cols[y * CW + x];
        float want[4] = {c.x / 255.0f, c.y / 255.0f, c.z / 255.0f, c.w / 255.0f};
        if (memcmp(want, &o4[i], 16) != 0) { printf("FAIL point %d\n", i); return 1; }
    }
    // tex2Dgather (tld4): component z of the four footprint texels, counter-clockwise from lower left.
    gather<<<1, N>>>(pt, duv, d4);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(o4, d4, sizeof o4, cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++) {
        int x = (int) floorf(uv[i].x * (float) CW - 0.5f), y = (int) floorf(uv[i].y * (float) CH - 0.5f);
        int at[4][2] = {{x, y + 1}, {x + 1, y + 1}, {x + 1, y}, {x, y}};
        float want[4];
        for (int k = 0; k < 4; k++) want[k] = cols[wrapIdx(at[k][1], CH) * CW + wrapIdx(at[k][0], CW)].z / 255.0f;
        if (memcmp(want, &o4[i], 16) != 0) { printf("FAIL gather %d\n", i); return 1; }
    }
    td.addressMode[0] = td.addressMode[1] = cudaAddressModeBorder;
    td.readMode = cudaReadModeElementType;
    td.normalizedCoords = 0;
    cudaTextureObject_t bt;
    CHECK(cudaCreateTextureObject(&bt, &rd, &td, nullptr));
    float2 px[N];
    for (int i = 0; i < N; i++) px[i] = make_float2((float) (i % 7) - 1.5f, (float) (i / 7 % 5) - 0.5f);
    CHECK(cudaMemcpy(duv, px, sizeof px, cudaMemcpyHostToDevice));
    uchar4 *du;
    CHECK(cudaMalloc(&du, N * sizeof(uchar4)));
    fetchInt<<<1, N>>>(bt, duv, du);
    CHECK(cudaGetLastError());
    uchar4 ou[N];
    CHECK(cudaMemcpy(ou, du, sizeof ou, cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++) {
        int x = (int) floorf(px[i].x), y = (int) floorf(px[i].y);
        uchar4 want = x < 0 || x >= CW || y < 0 || y >= CH ? make_uchar4(0, 0, 0, 0) : cols[y * CW + x];
        if (memcmp(&want, &ou[i], 4) != 0) { printf("FAIL border %d\n", i); return 1; }
    }

    // The float image again as pitch2D linear memory (cudaMallocPitch), point sampled at
    // unnormalized coordinates with clamp.
    float *pimg;
    size_t pitch;
    CHECK(cudaMallocPitch((void **) &pimg, &pitch, W * sizeof(float), H));
    CHECK(cudaMemcpy2D(pimg, pitch, img, W * sizeof(float), W * sizeof(float), H, cudaMemcpyHostToDevice));
    cudaResourceDesc pr = {};
    pr.resType = cudaResourceTypePitch2D;
    pr.res.pitch2D.devPtr = pimg;
    pr.res.pitch2D.desc = fd;
    pr.res.pitch2D.width = W;
    pr.res.pitch2D.height = H;
    pr.res.pitch2D.pitchInBytes = pitch;
    cudaTextureDesc ptd = {};
    ptd.addressMode[0] = ptd.addressMode[1] = cudaAddressModeClamp;
    cudaTextureObject_t pitched;
    CHECK(cudaCreateTextureObject(&pitched, &pr, &ptd, nullptr));
    fetch2d<<<1, N>>>(pitched, duv, dout);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++) {
        float want = texel2d(img, (int) floorf(px[i].x), (int) floorf(px[i].y));
        if (memcmp(&want, &out[i], 4) != 0) { printf("FAIL pitch2D %d\n", i); return 1; }
    }
    CHECK(cudaDestroyTextureObject(pitched));

    // 3D array through cudaMemcpy3D, point sampled at texel centres.
    float vol[2 * 3 * 4];
    for (int i = 0; i < 24; i++) vol[i] = 1.5f * i - 4;
    cudaArray_t va;
    CHECK(cudaMalloc3DArray(&va, &fd, make_cudaExtent(4, 3, 2)));
    cudaMemcpy3DParms p = {};
    p.srcPtr = make_cudaPitchedPtr(vol, 4 * sizeof(float), 4, 3);
    p.dstArray = va;
    p.extent = make_cudaExtent(4, 3, 2);
    p.kind = cudaMemcpyHostToDevice;
    CHECK(cudaMemcpy3D(&p));
    rd.res.array.array = va;
    td.addressMode[2] = cudaAddressModeClamp;
    cudaTextureObject_t vt;
    CHECK(cudaCreateTextureObject(&vt, &rd, &td, nullptr));
    fetch3d<<<1, dim3(4, 3, 2)>>>(vt, dout);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(out, dout, 24 * sizeof(float), cudaMemcpyDeviceToHost));
    EXPECT(memcmp(out, vol, sizeof vol) == 0);

    // tex1Dfetch of linear memory.
    int lin32[N];
    for (int i = 0; i < N; i++) lin32[i] = i * i - 100;
    int *dl, *di;
    CHECK(cudaMalloc(&dl, sizeof lin32));
    CHECK(cudaMalloc(&di, sizeof lin32));
    CHECK(cudaMemcpy(dl, lin32, sizeof lin32, cudaMemcpyHostToDevice));
    cudaResourceDesc lr = {};
    lr.resType = cudaResourceTypeLinear;
    lr.res.linear.devPtr = dl;
    lr.res.linear.desc = cudaCreateChannelDesc<int>();
    lr.res.linear.sizeInBytes = sizeof lin32;
    cudaTextureDesc ltd = {};
    cudaTextureObject_t lt;
    CHECK(cudaCreateTextureObject(&lt, &lr, &ltd, nullptr));
    fetchLinear<<<1, N>>>(lt, di);
    int li[N];
    CHECK(cudaMemcpy(li, di, sizeof li, cudaMemcpyDeviceToHost));
    EXPECT(memcmp(li, lin32, sizeof li) == 0);

    // Surface: written by one kernel, read by another, copied back.
    cudaChannelFormatDesc id = cudaCreateChannelDesc<int>();
    cudaArray_t sa;
    CHECK(cudaMallocArray(&sa, &id, 6, 3, cudaArraySurfaceLoadStore));
    rd.res.array.array = sa;
    cudaSurfaceObject_t s;
    CHECK(cudaCreateSurfaceObject(&s, &rd));
    paint<<<1, dim3(6, 3)>>>(s);
    CHECK(cudaGetLastError());
    int *dr;
    CHECK(cudaMalloc(&dr, 20 * sizeof(int)));
    readBack<<<1, dim3(6, 3)>>>(s, dr);
    CHECK(cudaGetLastError());
    int rb[20], whole[3][8];
    CHECK(cudaMemcpy(rb, dr, sizeof rb, cudaMemcpyDeviceToHost));
    for (int y = 0; y < 3; y++)
        for (int x = 0; x < 6; x++) EXPECT(rb[y * 6 + x] == x * 100 + y + 1);
    EXPECT(rb[18] == 0 && rb[19] == 502);
    CHECK(cudaMemcpy2DFromArrayAsync(whole, 8 * sizeof(int), sa, 0, 0, 6 * sizeof(int), 3, cudaMemcpyDeviceToHost, 0));
    CHECK(cudaStreamSynchronize(0));
    for (int y = 0; y < 3; y++)
        for (int x = 0; x < 6; x++) EXPECT(whole[y][x] == x * 100 + y);
    int part[2];
    CHECK(cudaMemcpy2DFromArray(part, 2 * sizeof(int), sa, 2 * sizeof(int), 1, 2 * sizeof(int), 1, cudaMemcpyDeviceToHost));
    EXPECT(part[0] == 201 && part[1] == 301);
    // Array to array (2D and the deprecated run of bytes), read back.
    cudaArray_t sb;
    CHECK(cudaMallocArray(&sb, &id, 6, 3));
    CHECK(cudaMemcpy2DArrayToArray(sb, 0, 0, sa, 4 * sizeof(int), 1, 2 * sizeof(int), 2, cudaMemcpyDeviceToDevice));
    CHECK(cudaMemcpyArrayToArray(sb, 0, 2, sa, 0, 0, 6 * sizeof(int), cudaMemcpyDeviceToDevice));
    int two[3][6];
    CHECK(cudaMemcpyFromArray(two, sb, 0, 0, sizeof two, cudaMemcpyDeviceToHost));
    EXPECT(two[0][0] == 401 && two[0][1] == 501 && two[1][0] == 402 && two[1][1] == 502);
    for (int x = 0; x < 6; x++) EXPECT(two[2][x] == x * 100);
    CHECK(cudaFreeArray(sb));
    // A copy reaching outside the array is refused, naming the call.
    EXPECT(cudaMemcpy2DFromArray(part, 8, sa, 5 * sizeof(int), 0, 2 * sizeof(int), 1, cudaMemcpyDeviceToHost) == cudaErrorInvalidValue);
    cudaGetLastError();

    CHECK(cudaDestroySurfaceObject(s));
    CHECK(cudaDestroyTextureObject(lin));
    CHECK(cudaDestroyTextureObject(pt));
    CHECK(cudaDestroyTextureObject(bt));
    CHECK(cudaDestroyTextureObject(vt));
    CHECK(cudaDestroyTextureObject(lt));
    EXPECT(cudaDestroyTextureObject(lt) == cudaErrorInvalidValue);
    cudaGetLastError();
    CHECK(cudaFreeArray(fa));
    CHECK(cudaFreeArray(ca));
    CHECK(cudaFreeArray(va));
    CHECK(cudaFreeArray(sa));
    printf("PASS textures\n");
    return 0;
}
