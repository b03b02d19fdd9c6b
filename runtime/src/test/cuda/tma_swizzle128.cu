// A 128B-swizzled TMA tile as CUTLASS host code builds it: a K-major half-precision operand whose
// rows are 64 elements (128 bytes) long, encoded with cuTensorMapEncodeTiled (obtained through
// cudaGetDriverEntryPoint) with CU_TENSOR_MAP_SWIZZLE_128B and a {64, 8} box, loaded into a
// 1024-byte-aligned shared tile. Each thread reads its element back through the 128B swizzle
// (cute's Swizzle<3,4,3>: 16-byte chunk index XOR row index mod 8) and the host checks the
// unswizzled tile and the raw shared bytes. Then cuTensorMapReplaceAddress points the map at a
// second tensor. It also checks what the driver refuses and what BarrierScope does not model
// (im2col maps: tma_im2col.cu).
#include <cstdio>
#include <cstdint>
#include <cuda.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#define K 64      // elements per row: 64 halves = 128 bytes, the 128B swizzle's span
#define ROWS 8    // one full swizzle pattern (8 lines of 128 bytes)
#define M 16      // the tensor's rows; the kernel loads rows 8..15

__device__ __forceinline__ unsigned swizzle128(unsigned byte) { return byte ^ (((byte >> 7) & 7) << 4); }

__global__ void tma_swizzle128(const __grid_constant__ CUtensorMap tmap, unsigned short *out, unsigned short *raw) {
    __shared__ alignas(1024) unsigned short tile[ROWS * K];
    __shared__ alignas(8) uint64_t full;
    unsigned bar = static_cast<unsigned>(__cvta_generic_to_shared(&full));
    unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(&tile[0]));
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(bar));
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(bar), "r"((unsigned) sizeof tile) : "memory");
        asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
                     :: "r"(dst), "l"(&tmap), "r"(0), "r"(ROWS), "r"(bar) : "memory");
    }
    __syncthreads();
    asm volatile("{\n .reg .pred done;\nWAIT:\n mbarrier.try_wait.parity.shared::cta.b64 done, [%0], 0;\n @!done bra WAIT;\n}"
                 :: "r"(bar) : "memory");
    for (unsigned i = threadIdx.x; i < ROWS * K; i += blockDim.x) {
        out[i] = tile[swizzle128(i * 2) / 2];  // logical element i, found where the swizzle put it
        raw[i] = tile[i];
    }
}

typedef CUresult (*EncodeTiled)(CUtensorMap *, CUtensorMapDataType, cuuint32_t, void *, const cuuint64_t *, const cuuint64_t *,
                                const cuuint32_t *, const cuuint32_t *, CUtensorMapInterleave, CUtensorMapSwizzle,
                                CUtensorMapL2promotion, CUtensorMapFloatOOBfill);

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
    printf("FAIL %s: %s\n", #x, cudaGetErrorString(e)); return 1; } } while (0)

int main() {
    const int n = M * K, t = ROWS * K;
    unsigned short host[n], out[t], raw[t];
    for (int i = 0; i < n; i++) host[i] = __half_as_ushort(__float2half((float) i));
    unsigned short *tensor, *dOut, *dRaw;
    CHECK(cudaMalloc(&tensor, sizeof host));
    CHECK(cudaMalloc(&dOut, sizeof out));
    CHECK(cudaMalloc(&dRaw, sizeof raw));
    CHECK(cudaMemcpy(tensor, host, sizeof host, cudaMemcpyHostToDevice));
    void *fn = nullptr;
    cudaDriverEntryPointQueryResult q;
    CHECK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault, &q));
    if (fn == nullptr || q != cudaDriverEntryPointSuccess) { printf("FAIL no cuTensorMapEncodeTiled\n"); return 1; }
    EncodeTiled encode = (EncodeTiled) fn;
    // As CUTLASS's make_tma_copy builds it: dims and box innermost first, strides in bytes of dims 1.., element strides 1.
    cuuint64_t dims[2] = {K, M};
    cuuint64_t strides[1] = {K * sizeof(unsigned short)};
    cuuint32_t box[2] = {K, ROWS};
    cuuint32_t elem[2] = {1, 1};
    CUtensorMap map;
    CUresult r = encode(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, tensor, dims, strides, box, elem, CU_TENSOR_MAP_INTERLEAVE_NONE,
                        CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r != CUDA_SUCCESS) { printf("FAIL encode 128B: %d\n", (int) r); return 1; }

    // What the driver refuses: a box row longer than the swizzle span (invalid on a GPU too), and
    // what BarrierScope does not model (a GPU accepts it): the 32-byte-atom swizzle.
    cuuint32_t wide[2] = {2 * K, ROWS};
    CUtensorMap unused;
    r = encode(&unused, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, tensor, dims, strides, wide, elem, CU_TENSOR_MAP_INTERLEAVE_NONE,
               CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r != CUDA_ERROR_INVALID_VALUE) { printf("FAIL wide box: %d\n", (int) r); return 1; }
    r = encode(&unused, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, tensor, dims, strides, box, elem, CU_TENSOR_MAP_INTERLEAVE_NONE,
               CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B, CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r != CUDA_ERROR_NOT_SUPPORTED) { printf("FAIL atom swizzle: %d\n", (int) r); return 1; }

    tma_swizzle128<<<1, 128>>>(map, dOut, dRaw);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(out, dOut, sizeof out, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(raw, dRaw, sizeof raw, cudaMemcpyDeviceToHost));
    const unsigned short *want = host + ROWS * K;  // rows 8..15 of the tensor
    for (int i = 0; i < t; i++)
        if (out[i] != want[i]) { printf("FAIL out[%d] = %d, want %d\n", i, (int) out[i], (int) want[i]); return 1; }
    int moved = 0;
    for (int i = 0; i < t; i++) {
        int s = (i * 2) ^ ((((i * 2) >> 7) & 7) << 4);
        if (raw[s / 2] != want[i]) { printf("FAIL raw[%d] = %d, want %d\n", s / 2, (int) raw[s / 2], (int) want[i]); return 1; }
        if (raw[i] != want[i]) moved++;
    }
    // Row 0 stays in place; rows 1..7 each permute all 8 of their 16-byte chunks.
    if (moved != 7 * K) { printf("FAIL %d elements moved by the swizzle, want %d\n", moved, 7 * K); return 1; }

    // The same map pointed at another tensor (cuTensorMapReplaceAddress), as a kernel run on a
    // second batch would be: the tile now comes from there.
    void *replace = nullptr;
    CHECK(cudaGetDriverEntryPointByVersion("cuTensorMapReplaceAddress", &replace, 12000, cudaEnableDefault, &q));
    unsigned short second[n];
    for (int i = 0; i < n; i++) second[i] = __half_as_ushort(__float2half((float) (i + 1000)));
    unsigned short *tensor2;
    CHECK(cudaMalloc(&tensor2, sizeof second));
    CHECK(cudaMemcpy(tensor2, second, sizeof second, cudaMemcpyHostToDevice));
    r = ((CUresult (*)(CUtensorMap *, void *)) replace)(&map, tensor2);
    if (r != CUDA_SUCCESS) { printf("FAIL replace address: %d\n", (int) r); return 1; }
    tma_swizzle128<<<1, 128>>>(map, dOut, dRaw);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(out, dOut, sizeof out, cudaMemcpyDeviceToHost));
    for (int i = 0; i < t; i++)
        if (out[i] != second[ROWS * K + i]) { printf("FAIL replaced out[%d] = %d\n", i, (int) out[i]); return 1; }

    printf("PASS tma_swizzle128\n");
    return 0;
}
