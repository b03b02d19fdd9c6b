// Tensor-map modes a host program sets with cuTensorMapEncodeTiled (obtained through
// cudaGetDriverEntryPoint as CUTLASS does), each checked by the program itself:
//  - element (traversal) strides {1, 2}: a {16, 8} box delivers every second row, 4 rows in all,
//    and the mbarrier completes on those 256 bytes;
//  - CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA: a box partly outside the tensor reads
//    NaN there and the tensor's values inside;
//  - cp.reduce.async.bulk.tensor .add on an INT32 map: the element type comes from the map the
//    runtime built, and the box is added into global memory;
//  - what the driver refuses: NaN fill on an integer type, 32B interleave without 32B swizzle, a stride
//    smaller than the dimension before it.
#include <cstdio>
#include <cstdint>
#include <cmath>
#include <cuda.h>
#include <cuda_runtime.h>

#define W 16        // tensor columns (floats: 64 bytes a row)
#define H 16        // tensor rows
#define BOX_X 16
#define BOX_Y 8
#define STRIDED_ROWS (BOX_Y / 2)   // rows one box delivers with an element stride of 2

__global__ void tma_modes(const __grid_constant__ CUtensorMap strided, const __grid_constant__ CUtensorMap nanFill,
                          const __grid_constant__ CUtensorMap sums, float *outStrided, float *outNan) {
    __shared__ alignas(128) float a[STRIDED_ROWS * BOX_X];
    __shared__ alignas(128) float b[BOX_Y * BOX_X];
    __shared__ alignas(128) int add[BOX_Y * BOX_X];
    __shared__ alignas(8) uint64_t full;
    unsigned bar = static_cast<unsigned>(__cvta_generic_to_shared(&full));
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(bar));
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(bar), "r"((unsigned) (sizeof a + sizeof b)) : "memory");
        // Rows 0, 2, 4, 6 of the tensor (the traversal stride of dimension 1 is 2).
        asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
                     :: "r"((unsigned) __cvta_generic_to_shared(a)), "l"(&strided), "r"(0), "r"(0), "r"(bar) : "memory");
        // Columns 8..23 and rows 12..19: columns 16.. and rows 16.. are outside the 16x16 tensor.
        asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
                     :: "r"((unsigned) __cvta_generic_to_shared(b)), "l"(&nanFill), "r"(8), "r"(12), "r"(bar) : "memory");
    }
    for (unsigned i = threadIdx.x; i < BOX_Y * BOX_X; i += blockDim.x) add[i] = (int) (1000 + i);
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");  // the generic writes of add, before TMA reads them
    __syncthreads();
    asm volatile("{\n .reg .pred done;\nWAIT:\n mbarrier.try_wait.parity.shared::cta.b64 done, [%0], 0;\n @!done bra WAIT;\n}"
                 :: "r"(bar) : "memory");
    for (unsigned i = threadIdx.x; i < STRIDED_ROWS * BOX_X; i += blockDim.x) outStrided[i] = a[i];
    for (unsigned i = threadIdx.x; i < BOX_Y * BOX_X; i += blockDim.x) outNan[i] = b[i];
    if (threadIdx.x == 0) {
        // Rows 4..11 of the int tensor each gain 1000 + their index in the box.
        asm volatile("cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group [%0, {%1, %2}], [%3];"
                     :: "l"(&sums), "r"(0), "r"(4), "r"((unsigned) __cvta_generic_to_shared(add)) : "memory");
        asm volatile("cp.async.bulk.commit_group;" ::: "memory");
        asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
    }
}

typedef CUresult (*EncodeTiled)(CUtensorMap *, CUtensorMapDataType, cuuint32_t, void *, const cuuint64_t *, const cuuint64_t *,
                                const cuuint32_t *, const cuuint32_t *, CUtensorMapInterleave, CUtensorMapSwizzle,
                                CUtensorMapL2promotion, CUtensorMapFloatOOBfill);

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
    printf("FAIL %s: %s\n", #x, cudaGetErrorString(e)); return 1; } } while (0)

int main() {
    float host[H * W];
    int ints[H * W];
    for (int i = 0; i < H * W; i++) { host[i] = (float) i; ints[i] = i; }
    float *tensor, *dStrided, *dNan;
    int *intTensor;
    CHECK(cudaMalloc(&tensor, sizeof host));
    CHECK(cudaMalloc(&intTensor, sizeof ints));
    CHECK(cudaMalloc(&dStrided, STRIDED_ROWS * BOX_X * sizeof(float)));
    CHECK(cudaMalloc(&dNan, BOX_Y * BOX_X * sizeof(float)));
    CHECK(cudaMemcpy(tensor, host, sizeof host, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(intTensor, ints, sizeof ints, cudaMemcpyHostToDevice));
    void *fn = nullptr;
    cudaDriverEntryPointQueryResult q;
    CHECK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault, &q));
    if (fn == nullptr || q != cudaDriverEntryPointSuccess) { printf("FAIL no cuTensorMapEncodeTiled\n"); return 1; }
    EncodeTiled encode = (EncodeTiled) fn;
    cuuint64_t dims[2] = {W, H};
    cuuint64_t strides[1] = {W * sizeof(float)};
    cuuint32_t box[2] = {BOX_X, BOX_Y};
    cuuint32_t ones[2] = {1, 1};
    cuuint32_t every2[2] = {1, 2};
    CUtensorMap strided, nanFill, sums, unused;
    CUresult r = encode(&strided, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, tensor, dims, strides, box, every2, CU_TENSOR_MAP_INTERLEAVE_NONE,
                        CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r != CUDA_SUCCESS) { printf("FAIL encode strided: %d\n", (int) r); return 1; }
    r = encode(&nanFill, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, tensor, dims, strides, box, ones, CU_TENSOR_MAP_INTERLEAVE_NONE,
               CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA);
    if (r != CUDA_SUCCESS) { printf("FAIL encode NaN fill: %d\n", (int) r); return 1; }
    r = encode(&sums, CU_TENSOR_MAP_DATA_TYPE_INT32, 2, intTensor, dims, strides, box, ones, CU_TENSOR_MAP_INTERLEAVE_NONE,
               CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r != CUDA_SUCCESS) { printf("FAIL encode sums: %d\n", (int) r); return 1; }

    // Refused as the driver refuses them: NaN fill of an integer tensor; 32B interleave without 32B swizzle.
    r = encode(&unused, CU_TENSOR_MAP_DATA_TYPE_INT32, 2, intTensor, dims, strides, box, ones, CU_TENSOR_MAP_INTERLEAVE_NONE,
               CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA);
    if (r != CUDA_ERROR_INVALID_VALUE) { printf("FAIL NaN fill of ints: %d\n", (int) r); return 1; }
    cuuint64_t dims3[3] = {8, W, H};
    cuuint64_t strides3[2] = {8 * sizeof(float), 8 * W * sizeof(float)};
    cuuint32_t box3[3] = {8, 4, 4};
    cuuint32_t ones3[3] = {1, 1, 1};
    r = encode(&unused, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 3, tensor, dims3, strides3, box3, ones3, CU_TENSOR_MAP_INTERLEAVE_32B,
               CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r != CUDA_ERROR_INVALID_VALUE) { printf("FAIL 32B interleave without 32B swizzle: %d\n", (int) r); return 1; }
    // A row stride (16 bytes) smaller than the row it must include (W floats, 64 bytes): rows would overlap.
    cuuint64_t overlapping[1] = {16};
    r = encode(&unused, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, tensor, dims, overlapping, box, ones, CU_TENSOR_MAP_INTERLEAVE_NONE,
               CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r != CUDA_ERROR_INVALID_VALUE) { printf("FAIL overlapping rows: %d\n", (int) r); return 1; }

    tma_modes<<<1, 128>>>(strided, nanFill, sums, dStrided, dNan);
    CHECK(cudaGetLastError());
    float outStrided[STRIDED_ROWS * BOX_X], outNan[BOX_Y * BOX_X];
    CHECK(cudaMemcpy(outStrided, dStrided, sizeof outStrided, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(outNan, dNan, sizeof outNan, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(ints, intTensor, sizeof ints, cudaMemcpyDeviceToHost));
    for (int y = 0; y < STRIDED_ROWS; y++)
        for (int x = 0; x < BOX_X; x++) {
            float want = host[(2 * y) * W + x];
            if (outStrided[y * BOX_X + x] != want) { printf("FAIL strided[%d][%d] = %g, want %g\n", y, x, outStrided[y * BOX_X + x], want); return 1; }
        }
    int nans = 0;
    for (int y = 0; y < BOX_Y; y++)
        for (int x = 0; x < BOX_X; x++) {
            int gx = 8 + x, gy = 12 + y;
            float got = outNan[y * BOX_X + x];
            if (gx >= W || gy >= H) {
                if (!std::isnan(got)) { printf("FAIL out of bounds [%d][%d] = %g, want NaN\n", gy, gx, got); return 1; }
                nans++;
            } else if (got != host[gy * W + gx]) { printf("FAIL in bounds [%d][%d] = %g, want %g\n", gy, gx, got, host[gy * W + gx]); return 1; }
        }
    if (nans != BOX_Y * BOX_X - 4 * 8) { printf("FAIL %d NaNs, want %d\n", nans, BOX_Y * BOX_X - 4 * 8); return 1; }
    for (int i = 0; i < H * W; i++) {
        int row = i / W;
        int want = row >= 4 && row < 4 + BOX_Y ? i + 1000 + (i - 4 * W) : i;
        if (ints[i] != want) { printf("FAIL reduced[%d] = %d, want %d\n", i, ints[i], want); return 1; }
    }
    printf("PASS tma_modes\n");
    return 0;
}
