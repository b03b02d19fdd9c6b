// tex2Dgather on a mipmapped array made with cudaArrayTextureGather: "Texture gather can only be
// performed on 2D CUDA mipmapped arrays, and the gather operations are performed only on the most
// detailed mipmap level" (cudaMallocMipmappedArray). An 8 x 4 float array of 3 levels, level 0
// and level 1 filled with different values; every gather must come from level 0, the four texels
// of the footprint counter-clockwise from lower left, clamped at the edges, checked bit for bit
// against a host reference. Then the flag where CUDA refuses it ("only ... 2D"): cudaErrorInvalidValue
// for cubemap, 3D and 1D arrays and for non-2D mipmapped arrays.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
    printf("FAIL %s: %s\n", #x, cudaGetErrorString(e)); return 1; } } while (0)
#define EXPECT(c) do { if (!(c)) { printf("FAIL line %d: %s\n", __LINE__, #c); return 1; } } while (0)

static const int W = 8, H = 4, N = 64;

__global__ void gather(cudaTextureObject_t t, const float2 *uv, float4 *out) {
    int i = threadIdx.x;
    out[i] = tex2Dgather<float4>(t, uv[i].x, uv[i].y, 0);
}

static int clampi(int v, int n) { return v < 0 ? 0 : v >= n ? n - 1 : v; }

int main() {
    cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
    cudaMipmappedArray_t mm;
    CHECK(cudaMallocMipmappedArray(&mm, &fd, make_cudaExtent(W, H, 0), 3, cudaArrayTextureGather));
    float lvl0[W * H], lvl1[(W / 2) * (H / 2)];
    for (int i = 0; i < W * H; i++) lvl0[i] = (float) (i % W) + 10.0f * (float) (i / W);
    for (int i = 0; i < (W / 2) * (H / 2); i++) lvl1[i] = 1000.0f + (float) i;
    cudaArray_t a0, a1;
    CHECK(cudaGetMipmappedArrayLevel(&a0, mm, 0));
    CHECK(cudaGetMipmappedArrayLevel(&a1, mm, 1));
    CHECK(cudaMemcpy2DToArray(a0, 0, 0, lvl0, W * sizeof(float), W * sizeof(float), H, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy2DToArray(a1, 0, 0, lvl1, (W / 2) * sizeof(float), (W / 2) * sizeof(float), H / 2, cudaMemcpyHostToDevice));

    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeMipmappedArray;
    rd.res.mipmap.mipmap = mm;
    cudaTextureDesc td = {};
    td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
    td.filterMode = cudaFilterModePoint;
    td.mipmapFilterMode = cudaFilterModePoint;
    td.readMode = cudaReadModeElementType;
    td.normalizedCoords = 1;
    td.maxMipmapLevelClamp = 2;
    cudaTextureObject_t t;
    CHECK(cudaCreateTextureObject(&t, &rd, &td, nullptr));

    float2 uv[N];
    for (int i = 0; i < N; i++) uv[i] = make_float2(-0.1f + 1.2f * (float) (i % 8) / 7.0f, -0.05f + 1.1f * (float) (i / 8) / 7.0f);
    float2 *duv;
    float4 *dout, out[N];
    CHECK(cudaMalloc(&duv, sizeof uv));
    CHECK(cudaMalloc(&dout, sizeof out));
    CHECK(cudaMemcpy(duv, uv, sizeof uv, cudaMemcpyHostToDevice));
    gather<<<1, N>>>(t, duv, dout);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++) {
        int x = (int) floorf(uv[i].x * (float) W - 0.5f), y = (int) floorf(uv[i].y * (float) H - 0.5f);
        int at[4][2] = {{x, y + 1}, {x + 1, y + 1}, {x + 1, y}, {x, y}};
        float want[4];
        for (int k = 0; k < 4; k++) want[k] = lvl0[clampi(at[k][1], H) * W + clampi(at[k][0], W)];
        if (memcmp(want, &out[i], 16) != 0) {
            printf("FAIL gather %d at (%f, %f): %f %f %f %f\n", i, uv[i].x, uv[i].y, out[i].x, out[i].y, out[i].z, out[i].w);
            return 1;
        }
    }
    CHECK(cudaDestroyTextureObject(t));
    CHECK(cudaFreeMipmappedArray(mm));

    // Gathers are for 2D arrays only.
    cudaArray_t arr;
    EXPECT(cudaMalloc3DArray(&arr, &fd, make_cudaExtent(8, 8, 6), cudaArrayCubemap | cudaArrayTextureGather) == cudaErrorInvalidValue);
    EXPECT(cudaGetLastError() == cudaErrorInvalidValue);
    EXPECT(cudaMalloc3DArray(&arr, &fd, make_cudaExtent(8, 8, 4), cudaArrayTextureGather) == cudaErrorInvalidValue);
    EXPECT(cudaMallocArray(&arr, &fd, 8, 0, cudaArrayTextureGather) == cudaErrorInvalidValue);
    EXPECT(cudaMallocArray(&arr, &fd, 40000, 2, cudaArrayTextureGather) == cudaErrorInvalidValue);
    EXPECT(cudaMallocMipmappedArray(&mm, &fd, make_cudaExtent(8, 8, 6), 2, cudaArrayCubemap | cudaArrayTextureGather) == cudaErrorInvalidValue);
    EXPECT(cudaMallocMipmappedArray(&mm, &fd, make_cudaExtent(8, 8, 8), 2, cudaArrayTextureGather) == cudaErrorInvalidValue);
    EXPECT(cudaGetLastError() == cudaErrorInvalidValue);
    CHECK(cudaFree(duv));
    CHECK(cudaFree(dout));
    printf("PASS mipmap_gather\n");
    return 0;
}
