// Formatted surface stores (sust.p), surface reductions (sured) and the surface queries
// suq.array_size / suq.memory_layout on the engine (docs/semantics.md, "Textures and surfaces"),
// each checked against a host reference written here from the documented rules, bit for bit.
// CUDA 13's C++ has no formatted surface functions and no surface reductions (nvcc emits only
// sust.b/suld.b for surf*write/surf*read), so these kernels reach the instructions through inline
// PTX, which ptxas checks as it builds this program:
//  - a 2D half-float surface written by sust.p.2d.b32 with f32 sources, each exactly an f16
//    (the host reference converts with cuda_fp16.h's __float2half_rn), including .clamp (x past
//    the row lands on the last sample) and .zero (x = -1 is dropped);
//  - a 2D uchar4 surface written by sust.p.2d.v4.b32 with .u32 sources, one byte each;
//  - a 1D int surface that 64 threads reduce into with sured.b.add (byte x) and sured.p.min
//    (sample x), checked against the host's sums and minima;
//  - suq.array_size (the layers of a layered surface, 0 for a plain one) and suq.memory_layout
//    (0: CUDA arrays have no linear layout).
#include <cstdio>
#include <cstring>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
    printf("FAIL %s: %s\n", #x, cudaGetErrorString(e)); return 1; } } while (0)
#define EXPECT(c) do { if (!(c)) { printf("FAIL line %d: %s\n", __LINE__, #c); return 1; } } while (0)

static const int HW = 8, HH = 4;   // half surface: 8 x 4 samples
static const int CW = 4, CH = 2;   // uchar4 surface: 4 x 2 samples
static const int RN = 4;           // int surface for the reductions: 4 samples
static const int T = 64;           // threads of the reduction kernel

// The value thread (x, y) stores: a multiple of 1/4 in [-3, 4.75], exactly an f16.
__host__ __device__ static float halfValue(int x, int y) { return (float) (x + HW * y) * 0.25f - 3.0f; }

__global__ void paintHalf(cudaSurfaceObject_t s) {
    int x = threadIdx.x, y = threadIdx.y;
    float v = halfValue(x, y);
    asm volatile("sust.p.2d.b32.trap [%0, {%1, %2}], {%3};" :: "l"(s), "r"(x), "r"(y), "f"(v) : "memory");
}
// After paintHalf: row 0 through .clamp (x = HW + 5 lands on sample HW - 1), row 1 through .zero at x = -1 (dropped).
__global__ void edgesHalf(cudaSurfaceObject_t s) {
    float v = 100.0f;
    int far = HW + 5, zero = 0, minus = -1, one = 1;
    asm volatile("sust.p.2d.b32.clamp [%0, {%1, %2}], {%3};" :: "l"(s), "r"(far), "r"(zero), "f"(v) : "memory");
    asm volatile("sust.p.2d.b32.zero [%0, {%1, %2}], {%3};" :: "l"(s), "r"(minus), "r"(one), "f"(v) : "memory");
}
__global__ void paintRgba(cudaSurfaceObject_t s) {
    int x = threadIdx.x, y = threadIdx.y;
    unsigned r = 10 * x + y, g = 200 + x, b = 255 - y, a = 7 * x * y;
    asm volatile("sust.p.2d.v4.b32.trap [%0, {%1, %2}], {%3, %4, %5, %6};"
                 :: "l"(s), "r"(x), "r"(y), "r"(r), "r"(g), "r"(b), "r"(a) : "memory");
}
__global__ void reduce(cudaSurfaceObject_t s) {
    int t = threadIdx.x;
    int bx = (t % 2) * 4;          // bytes 0 and 4: samples 0 and 1 get adds
    int sx = 2 + t % 2;            // samples 2 and 3 get minima
    int add = t - 20, mn = 1000 - 37 * t;
    asm volatile("sured.b.add.1d.s32.trap [%0, {%1}], %2;" :: "l"(s), "r"(bx), "r"(add) : "memory");
    asm volatile("sured.p.min.1d.b32.trap [%0, {%1}], %2;" :: "l"(s), "r"(sx), "r"(mn) : "memory");
}
__global__ void query(cudaSurfaceObject_t layered, cudaSurfaceObject_t plain, unsigned *out) {
    unsigned a, b, c, d;
    asm volatile("suq.array_size.b32 %0, [%1];" : "=r"(a) : "l"(layered));
    asm volatile("suq.array_size.b32 %0, [%1];" : "=r"(b) : "l"(plain));
    asm volatile("suq.memory_layout.b32 %0, [%1];" : "=r"(c) : "l"(layered));
    asm volatile("suq.width.b32 %0, [%1];" : "=r"(d) : "l"(layered));
    out[0] = a; out[1] = b; out[2] = c; out[3] = d;
}

static cudaSurfaceObject_t surfaceOf(cudaArray_t a) {
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = a;
    cudaSurfaceObject_t s = 0;
    return cudaCreateSurfaceObject(&s, &rd) == cudaSuccess ? s : 0;
}

static unsigned short halfBits(float f) {
    __half h = __float2half_rn(f);
    unsigned short b;
    memcpy(&b, &h, 2);
    return b;
}

int main() {
    // Half surface.
    cudaChannelFormatDesc hd = cudaCreateChannelDescHalf();
    cudaArray_t ha;
    CHECK(cudaMallocArray(&ha, &hd, HW, HH, cudaArraySurfaceLoadStore));
    cudaSurfaceObject_t hs = surfaceOf(ha);
    EXPECT(hs != 0);
    paintHalf<<<1, dim3(HW, HH)>>>(hs);
    CHECK(cudaGetLastError());
    edgesHalf<<<1, 1>>>(hs);
    CHECK(cudaGetLastError());
    unsigned short hb[HH * HW];
    CHECK(cudaMemcpy2DFromArray(hb, HW * 2, ha, 0, 0, HW * 2, HH, cudaMemcpyDeviceToHost));
    for (int y = 0; y < HH; y++)
        for (int x = 0; x < HW; x++) {
            float v = (y == 0 && x == HW - 1) ? 100.0f : halfValue(x, y);
            unsigned short want = halfBits(v);
            if (hb[y * HW + x] != want) { printf("FAIL half (%d, %d): %04x, want %04x\n", x, y, hb[y * HW + x], want); return 1; }
        }

    // uchar4 surface.
    cudaChannelFormatDesc cd = cudaCreateChannelDesc<uchar4>();
    cudaArray_t ca;
    CHECK(cudaMallocArray(&ca, &cd, CW, CH, cudaArraySurfaceLoadStore));
    cudaSurfaceObject_t cs = surfaceOf(ca);
    EXPECT(cs != 0);
    paintRgba<<<1, dim3(CW, CH)>>>(cs);
    CHECK(cudaGetLastError());
    uchar4 cb[CH * CW];
    CHECK(cudaMemcpy2DFromArray(cb, CW * 4, ca, 0, 0, CW * 4, CH, cudaMemcpyDeviceToHost));
    for (int y = 0; y < CH; y++)
        for (int x = 0; x < CW; x++) {
            uchar4 got = cb[y * CW + x];
            EXPECT(got.x == 10 * x + y && got.y == 200 + x && got.z == 255 - y && got.w == 7 * x * y);
        }

    // Reductions into a 1D int surface (signed: sured.p.min reads .s32).
    cudaChannelFormatDesc id = cudaCreateChannelDesc<int>();
    cudaArray_t ra;
    CHECK(cudaMallocArray(&ra, &id, RN, 0, cudaArraySurfaceLoadStore));
    int init[RN] = {5, -7, 900, 2000000000};
    CHECK(cudaMemcpy2DToArray(ra, 0, 0, init, sizeof init, sizeof init, 1, cudaMemcpyHostToDevice));
    cudaSurfaceObject_t rs = surfaceOf(ra);
    EXPECT(rs != 0);
    reduce<<<1, T>>>(rs);
    CHECK(cudaGetLastError());
    int rb[RN], want[RN];
    memcpy(want, init, sizeof want);
    for (int t = 0; t < T; t++) {
        want[t % 2] += t - 20;
        int mn = 1000 - 37 * t;
        if (mn < want[2 + t % 2]) want[2 + t % 2] = mn;
    }
    CHECK(cudaMemcpy2DFromArray(rb, sizeof rb, ra, 0, 0, sizeof rb, 1, cudaMemcpyDeviceToHost));
    for (int i = 0; i < RN; i++)
        if (rb[i] != want[i]) { printf("FAIL sured sample %d: %d, want %d\n", i, rb[i], want[i]); return 1; }

    // Queries.
    cudaArray_t la;
    CHECK(cudaMalloc3DArray(&la, &id, make_cudaExtent(3, 2, 5), cudaArrayLayered | cudaArraySurfaceLoadStore));
    cudaSurfaceObject_t ls = surfaceOf(la);
    EXPECT(ls != 0);
    unsigned *dq, q[4];
    CHECK(cudaMalloc(&dq, sizeof q));
    query<<<1, 1>>>(ls, rs, dq);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(q, dq, sizeof q, cudaMemcpyDeviceToHost));
    EXPECT(q[0] == 5 && q[1] == 0 && q[2] == 0 && q[3] == 3);

    CHECK(cudaDestroySurfaceObject(hs));
    CHECK(cudaDestroySurfaceObject(cs));
    CHECK(cudaDestroySurfaceObject(rs));
    CHECK(cudaDestroySurfaceObject(ls));
    CHECK(cudaFreeArray(ha));
    CHECK(cudaFreeArray(ca));
    CHECK(cudaFreeArray(ra));
    CHECK(cudaFreeArray(la));
    CHECK(cudaFree(dq));
    printf("PASS surface_formats\n");
    return 0;
}
