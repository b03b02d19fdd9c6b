// A convolution's implicit-GEMM operand as a TMA im2col load, the way CUTLASS host code builds it:
// an NHWC f32 activation tensor (2 images of 6 x 5 pixels, 16 channels), a 3x3 filter with
// padding 1 and stride 2, encoded with cuTensorMapEncodeIm2col (found through
// cudaGetDriverEntryPoint) with the bounding box of the filter bases (lower corner -padding,
// upper corner the last base relative to the last pixel, W first), traversal strides 2 and a 64B
// swizzle. For every filter tap (r, s) the kernel loads 32 rows of the GEMM operand from the filter
// base of output pixel 0 with im2col offsets {s, r}, reads them back through the swizzle, and the
// host checks them against its own nested-loop im2col (zero for padding and for rows past the last
// image). Then it checks what the driver refuses and what BarrierScope does not model.
#include <cstdio>
#include <cstdint>
#include <cuda.h>
#include <cuda_runtime.h>

#define N 2
#define H 5
#define W 6
#define C 16      // 16 f32 channels = 64 bytes: the 64B swizzle's span
#define R 3
#define S 3
#define PAD 1
#define STRIDE 2
#define OH ((H + 2 * PAD - R) / STRIDE + 1)   // 3
#define OW ((W + 2 * PAD - S) / STRIDE + 1)   // 3
#define ROWS 32   // pixelsPerColumn: 18 output pixels, then 14 rows past the last image
#define TAPS (R * S)

__device__ __forceinline__ unsigned swizzle64(unsigned byte) { return byte ^ (((byte >> 7) & 3) << 4); }

__global__ void tma_im2col(const __grid_constant__ CUtensorMap tmap, float *out) {
    __shared__ alignas(1024) float tile[ROWS * C];
    __shared__ alignas(8) uint64_t full;
    unsigned bar = static_cast<unsigned>(__cvta_generic_to_shared(&full));
    unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(&tile[0]));
    if (threadIdx.x == 0) asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(bar));
    __syncthreads();
    for (int tap = 0; tap < TAPS; tap++) {
        if (threadIdx.x == 0) {
            unsigned short ow = tap % S, oh = tap / S;
            asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(bar), "r"((unsigned) sizeof tile) : "memory");
            asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes"
                         " [%0], [%1, {%2, %3, %4, %5}], [%6], {%7, %8};"
                         :: "r"(dst), "l"(&tmap), "r"(0), "r"(-PAD), "r"(-PAD), "r"(0), "r"(bar), "h"(ow), "h"(oh) : "memory");
        }
        asm volatile("{\n .reg .pred done;\nWAIT:\n mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n @!done bra WAIT;\n}"
                     :: "r"(bar), "r"(tap & 1) : "memory");
        for (unsigned i = threadIdx.x; i < ROWS * C; i += blockDim.x) out[tap * ROWS * C + i] = tile[swizzle64(i * 4) / 4];
        __syncthreads();  // the tile is read before the next tap's copy overwrites it
    }
}

typedef CUresult (*EncodeIm2col)(CUtensorMap *, CUtensorMapDataType, cuuint32_t, void *, const cuuint64_t *, const cuuint64_t *,
                                 const int *, const int *, cuuint32_t, cuuint32_t, const cuuint32_t *, CUtensorMapInterleave,
                                 CUtensorMapSwizzle, CUtensorMapL2promotion, CUtensorMapFloatOOBfill);

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
    printf("FAIL %s: %s\n", #x, cudaGetErrorString(e)); return 1; } } while (0)

// The host's own im2col: row m is output pixel (n, oh, ow), m = (n * OH + oh) * OW + ow; the
// element filter tap (r, s) reads for channel c, or 0 in the padding and past the last image.
static float reference(const float *x, int m, int r, int s, int c) {
    if (m >= N * OH * OW) return 0.0f;
    int ow = m % OW, oh = (m / OW) % OH, n = m / (OW * OH);
    int h = oh * STRIDE - PAD + r, w = ow * STRIDE - PAD + s;
    if (h < 0 || h >= H || w < 0 || w >= W) return 0.0f;
    return x[((n * H + h) * W + w) * C + c];
}

int main() {
    static float host[N * H * W * C], out[TAPS * ROWS * C];
    for (int i = 0; i < N * H * W * C; i++) host[i] = (float) (i + 1);
    float *tensor, *dOut;
    CHECK(cudaMalloc(&tensor, sizeof host));
    CHECK(cudaMalloc(&dOut, sizeof out));
    CHECK(cudaMemcpy(tensor, host, sizeof host, cudaMemcpyHostToDevice));
    void *fn = nullptr;
    cudaDriverEntryPointQueryResult q;
    CHECK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeIm2col", &fn, 12000, cudaEnableDefault, &q));
    if (fn == nullptr || q != cudaDriverEntryPointSuccess) { printf("FAIL no cuTensorMapEncodeIm2col\n"); return 1; }
    EncodeIm2col encode = (EncodeIm2col) fn;

    cuuint64_t dims[4] = {C, W, H, N};
    cuuint64_t strides[3] = {C * 4, W * C * 4, H * W * C * 4};
    int lower[2] = {-PAD, -PAD};                                           // W, H
    int upper[2] = {-PAD + (OW - 1) * STRIDE - (W - 1), -PAD + (OH - 1) * STRIDE - (H - 1)};
    cuuint32_t elem[4] = {1, STRIDE, STRIDE, 1};
    CUtensorMap map;
    CUresult r = encode(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 4, tensor, dims, strides, lower, upper, C, ROWS, elem,
                        CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_64B, CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
                        CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r != CUDA_SUCCESS) { printf("FAIL encode: %d\n", (int) r); return 1; }
    tma_im2col<<<1, 128>>>(map, dOut);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(out, dOut, sizeof out, cudaMemcpyDeviceToHost));
    int filled = 0;
    for (int tap = 0; tap < TAPS; tap++)
        for (int m = 0; m < ROWS; m++)
            for (int c = 0; c < C; c++) {
                float want = reference(host, m, tap / S, tap % S, c), got = out[(tap * ROWS + m) * C + c];
                if (got != want) { printf("FAIL tap %d row %d channel %d: %g, want %g\n", tap, m, c, got, want); return 1; }
                filled += want == 0.0f;
            }
    if (filled == 0) { printf("FAIL no padding or rows past the last image were checked\n"); return 1; }

    // What the driver refuses (CUDA_ERROR_INVALID_VALUE), and the W-only map BarrierScope does not model.
    CUtensorMap unused;
    int far[2] = {-PAD, -200};
    r = encode(&unused, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 4, tensor, dims, strides, far, upper, C, ROWS, elem,
               CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_64B, CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r != CUDA_ERROR_INVALID_VALUE) { printf("FAIL corner out of range: %d\n", (int) r); return 1; }
    r = encode(&unused, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 4, tensor, dims, strides, lower, upper, 32, ROWS, elem,
               CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_64B, CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r != CUDA_ERROR_INVALID_VALUE) { printf("FAIL 128 bytes of channels under a 64B swizzle: %d\n", (int) r); return 1; }
    r = encode(&unused, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 4, tensor, dims, strides, lower, upper, C, 2048, elem,
               CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_64B, CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r != CUDA_ERROR_INVALID_VALUE) { printf("FAIL 2048 pixels per column: %d\n", (int) r); return 1; }
    void *wide = nullptr;
    // cuTensorMapEncodeIm2colWide came with CUDA 12.8: asked for by an earlier version the driver gives NULL.
    CHECK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeIm2colWide", &wide, 12080, cudaEnableDefault, &q));
    r = ((CUresult (*)(CUtensorMap *, CUtensorMapDataType, cuuint32_t, void *, const cuuint64_t *, const cuuint64_t *, int, int,
                       cuuint32_t, cuuint32_t, const cuuint32_t *, CUtensorMapInterleave, CUtensorMapIm2ColWideMode, CUtensorMapSwizzle,
                       CUtensorMapL2promotion, CUtensorMapFloatOOBfill)) wide)(
        &unused, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 4, tensor, dims, strides, -PAD, 0, C, ROWS, elem, CU_TENSOR_MAP_INTERLEAVE_NONE,
        CU_TENSOR_MAP_IM2COL_WIDE_MODE_W, CU_TENSOR_MAP_SWIZZLE_64B, CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r != CUDA_ERROR_NOT_SUPPORTED) { printf("FAIL im2col wide: %d\n", (int) r); return 1; }
    printf("PASS tma_im2col\n");
    return 0;
}
