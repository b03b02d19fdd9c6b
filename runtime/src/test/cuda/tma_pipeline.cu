// A two-stage TMA pipeline whose tensor map the host builds with cuTensorMapEncodeTiled, obtained
// through cudaGetDriverEntryPoint as CUTLASS does, and passes as a __grid_constant__ parameter.
// One thread issues cp.async.bulk.tensor.2d for 16x8 boxes of a 16x32 int tensor into a ring of
// two slots; everyone waits on the slot's mbarrier phase, copies the tile out, and the slot is
// refilled with the tile two ahead.
#include <cstdio>
#include <cstdint>
#include <cuda.h>
#include <cuda_runtime.h>

#define BOX_X 16
#define BOX_Y 8
#define TILES 4

__global__ void tma_pipeline(const __grid_constant__ CUtensorMap tmap, int *out) {
    __shared__ alignas(128) int tile[2][BOX_Y][BOX_X];
    __shared__ alignas(8) uint64_t full[2];
    const unsigned bytes = BOX_X * BOX_Y * 4;
    if (threadIdx.x == 0) {
        for (int s = 0; s < 2; s++) {
            unsigned bar = static_cast<unsigned>(__cvta_generic_to_shared(&full[s]));
            asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(bar));
        }
    }
    __syncthreads();
    for (int t = 0; t < TILES; t++) {
        int slot = t % 2;
        unsigned bar = static_cast<unsigned>(__cvta_generic_to_shared(&full[slot]));
        if (threadIdx.x == 0 && t < 2) {
            unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(&tile[slot][0][0]));
            asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(bar), "r"(bytes) : "memory");
            asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
                         :: "r"(dst), "l"(&tmap), "r"(0), "r"(t * BOX_Y), "r"(bar) : "memory");
        }
        unsigned parity = (t / 2) % 2;
        asm volatile("{\n .reg .pred done;\nWAIT:\n mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n @!done bra WAIT;\n}"
                     :: "r"(bar), "r"(parity) : "memory");
        out[t * BOX_X * BOX_Y + threadIdx.x] = tile[slot][threadIdx.x / BOX_X][threadIdx.x % BOX_X];
        __syncthreads();  // the slot is read by everyone before it is refilled
        if (threadIdx.x == 0 && t + 2 < TILES) {
            unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(&tile[slot][0][0]));
            asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(bar), "r"(bytes) : "memory");
            asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
                         :: "r"(dst), "l"(&tmap), "r"(0), "r"((t + 2) * BOX_Y), "r"(bar) : "memory");
        }
    }
}

typedef CUresult (*EncodeTiled)(CUtensorMap *, CUtensorMapDataType, cuuint32_t, void *, const cuuint64_t *, const cuuint64_t *,
                                const cuuint32_t *, const cuuint32_t *, CUtensorMapInterleave, CUtensorMapSwizzle,
                                CUtensorMapL2promotion, CUtensorMapFloatOOBfill);

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
    printf("FAIL %s: %s\n", #x, cudaGetErrorString(e)); return 1; } } while (0)

int main() {
    const int w = BOX_X, h = BOX_Y * TILES, n = w * h;
    int host[n], *tensor, *out;
    for (int i = 0; i < n; i++) host[i] = i;
    CHECK(cudaMalloc(&tensor, sizeof host));
    CHECK(cudaMalloc(&out, sizeof host));
    CHECK(cudaMemcpy(tensor, host, sizeof host, cudaMemcpyHostToDevice));
    void *fn = nullptr;
    cudaDriverEntryPointQueryResult q;
    CHECK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault, &q));
    if (fn == nullptr || q != cudaDriverEntryPointSuccess) { printf("FAIL no cuTensorMapEncodeTiled\n"); return 1; }
    CUtensorMap map;
    cuuint64_t dims[2] = {(cuuint64_t) w, (cuuint64_t) h};
    cuuint64_t strides[1] = {w * sizeof(int)};
    cuuint32_t box[2] = {BOX_X, BOX_Y};
    cuuint32_t elem[2] = {1, 1};
    // An element stride above 8 is refused by name, as the driver refuses it.
    cuuint32_t every2[2] = {1, 9};
    CUresult sw = ((EncodeTiled) fn)(&map, CU_TENSOR_MAP_DATA_TYPE_INT32, 2, tensor, dims, strides, box, every2,
                                     CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                                     CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (sw != CUDA_ERROR_INVALID_VALUE) { printf("FAIL element strides: %d\n", (int) sw); return 1; }
    CUresult r = ((EncodeTiled) fn)(&map, CU_TENSOR_MAP_DATA_TYPE_INT32, 2, tensor, dims, strides, box, elem,
                                    CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                                    CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r != CUDA_SUCCESS) { printf("FAIL encode: %d\n", (int) r); return 1; }
    tma_pipeline<<<1, BOX_X * BOX_Y>>>(map, out);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) if (host[i] != i) { printf("FAIL out[%d] = %d\n", i, host[i]); return 1; }
    printf("PASS tma_pipeline\n");
    return 0;
}
