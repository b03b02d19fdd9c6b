// wgmma-missing-proxy-fence-fixed: the threads' ordinary stores of the A and B tiles are made
// visible to the async proxy, which wgmma.mma_async reads its descriptor operands through, by
// fence.proxy.async.shared::cta in every writer before __syncthreads() (the fix of
// wgmma-missing-proxy-fence).
//
// Launch: grid 1, block 128; A is 64 x 16 and Bt 16 x 16 (f16, row-major), C = A * B (64 x 16 f32).
#include <cstdint>

constexpr int M = 64, N = 16, K = 16;

// Byte offset of element (row, k) of a K-major tile without swizzle (PTX ISA 9.7.15.5.1): core
// matrices of 8 rows x 16 bytes, stored 128 bytes each; the next core matrix along K is 128
// bytes on (leading byte offset), the next along M or N 256 bytes on (stride byte offset).
__device__ unsigned core_offset(int row, int k) { return (row / 8) * 256 + (k / 8) * 128 + (row % 8) * 16 + (k % 8) * 2; }

// Its matrix descriptor: start >> 4 (bits 0-13), LBO 128 >> 4 (bits 16-29), SBO 256 >> 4
// (bits 32-45), swizzle mode 0 (none).
__device__ uint64_t desc(unsigned addr) {
    return (uint64_t)((addr >> 4) & 0x3FFF) | ((uint64_t)(128 >> 4) << 16) | ((uint64_t)(256 >> 4) << 32);
}

#define D8 "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7])

extern "C" __global__ void wgmma_proxy_fence(const uint16_t* A, const uint16_t* Bt, float* C)
{
    __shared__ alignas(256) uint16_t sA[M * K];
    __shared__ alignas(256) uint16_t sB[N * K];
    for (int i = threadIdx.x; i < M * K; i += blockDim.x) sA[core_offset(i / K, i % K) / 2] = A[i];
    for (int i = threadIdx.x; i < N * K; i += blockDim.x) sB[core_offset(i / K, i % K) / 2] = Bt[i];
    // wgmma reads shared memory through the async proxy: make the generic stores above visible to it.
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();

    float d[8];
    for (int i = 0; i < 8; i++) d[i] = 0.f;
    // Pin the zeros before the fence: otherwise nvcc may move them after wgmma.fence, which then
    // no longer separates them from the wgmma (CUTLASS's warpgroup_fence_operand does the same).
    for (int i = 0; i < 8; i++) asm volatile("" : "+f"(d[i]) :: "memory");
    uint64_t da = desc(static_cast<unsigned>(__cvta_generic_to_shared(sA)));
    uint64_t db = desc(static_cast<unsigned>(__cvta_generic_to_shared(sB)));
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
    asm volatile("{\n"
                 " .reg .pred p;\n"
                 " setp.ne.b32 p, %10, 0;\n"
                 " wgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16 {%0, %1, %2, %3, %4, %5, %6, %7}, %8, %9, p, 1, 1, 0, 0;\n"
                 "}"
                 : D8 : "l"(da), "l"(db), "r"(1));
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
    // Accumulator fragment: warp w, lane l, element i is row 16w + l/4 (+8 when i%4 >= 2),
    // column 8*(i/4) + 2*(l%4) + i%2.
    int w = threadIdx.x / 32, l = threadIdx.x % 32;
    for (int i = 0; i < 8; i++) C[(16 * w + l / 4 + ((i % 4) >= 2 ? 8 : 0)) * N + 8 * (i / 4) + 2 * (l % 4) + (i % 2)] = d[i];
}
