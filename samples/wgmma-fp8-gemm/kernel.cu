// wgmma-fp8-gemm: one warpgroup (128 threads) computes C (64x64, f32) = A (64x128, e4m3) * B (128x64, e4m3)
// with wgmma.mma_async. Thread 0 loads both tiles with TMA (128-byte swizzle) into shared memory,
// the mbarrier's transaction count tracks their bytes, and the warpgroup multiplies them in four
// k-steps of m64n64k32 (e4m3: 32 bytes of K a step), reading both operands through descriptors.
#include <cuda.h>
#include <cstdint>

constexpr int M = 64, N = 64, K = 128;

// The matrix descriptor of a K-major tile with 128-byte swizzle (PTX ISA 9.7.15.5.1): start
// address >> 4 in bits 0-13; leading byte offset unused for this layout (1 by convention);
// stride byte offset 1024 (eight 128-byte rows, one swizzle atom) in bits 32-45; mode 1 (128B)
// in bits 62-63.
__device__ uint64_t sw128_desc(unsigned addr) {
    return (uint64_t)((addr >> 4) & 0x3FFF) | ((uint64_t)1 << 16) | ((uint64_t)(1024 >> 4) << 32) | ((uint64_t)1 << 62);
}

#define D8(i) "+f"(d[i]), "+f"(d[i + 1]), "+f"(d[i + 2]), "+f"(d[i + 3]), "+f"(d[i + 4]), "+f"(d[i + 5]), "+f"(d[i + 6]), "+f"(d[i + 7])

// A is M x K row-major; Bt is B stored N x K (each column of B contiguous along K), so both
// tiles are K-major, the layout wgmma reads without transposing.
extern "C" __global__ void wgmma_fp8_gemm(const __grid_constant__ CUtensorMap mapA, const __grid_constant__ CUtensorMap mapBt,
                                      float* C)
{
    __shared__ alignas(1024) uint8_t sA[M * K];
    __shared__ alignas(1024) uint8_t sB[N * K];
    __shared__ alignas(8) uint64_t full;
    unsigned bar = static_cast<unsigned>(__cvta_generic_to_shared(&full));
    unsigned a = static_cast<unsigned>(__cvta_generic_to_shared(sA));
    unsigned b = static_cast<unsigned>(__cvta_generic_to_shared(sB));

    if (threadIdx.x == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(bar));
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(bar), "r"(2 * M * K) : "memory");
        asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
                     :: "r"(a), "l"(&mapA), "r"(0), "r"(0), "r"(bar) : "memory");
        asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
                     :: "r"(b), "l"(&mapBt), "r"(0), "r"(0), "r"(bar) : "memory");
    }
    __syncthreads();   // the init above is visible before anyone waits
    asm volatile("{\n"
                 " .reg .pred done;\n"
                 "WAIT:\n"
                 " mbarrier.try_wait.parity.shared::cta.b64 done, [%0], 0;\n"
                 " @!done bra WAIT;\n"
                 "}" :: "r"(bar) : "memory");

    float d[32];
    for (int i = 0; i < 32; i++) d[i] = 0.f;
    // Pin the zeros before the fence: otherwise nvcc may move them after wgmma.fence, which then
    // no longer separates them from the wgmma (CUTLASS's warpgroup_fence_operand does the same).
    for (int i = 0; i < 32; i++) asm volatile("" : "+f"(d[i]) :: "memory");
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
#pragma unroll
    for (int k = 0; k < K / 32; k++) {
        // k-step k starts 32 bytes (32 e4m3 elements) further along each 128-byte row.
        uint64_t da = sw128_desc(a + 32 * k), db = sw128_desc(b + 32 * k);
        asm volatile("{\n"
                     " .reg .pred p;\n"
                     " setp.ne.b32 p, %34, 0;\n"
                     " wgmma.mma_async.sync.aligned.m64n64k32.f32.e4m3.e4m3 "
                     "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
                     "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, "
                     "%32, %33, p, 1, 1;\n"
                     "}"
                     : D8(0), D8(8), D8(16), D8(24)
                     : "l"(da), "l"(db), "r"(1));
    }
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");

    // The accumulator fragment (PTX ISA 9.7.15.5.1.1): warp w holds rows 16w..16w+15; lane l's
    // element i is row l/4 (+8 when i%4 >= 2), column 8*(i/4) + 2*(l%4) + i%2.
    int w = threadIdx.x / 32, l = threadIdx.x % 32;
    for (int i = 0; i < 32; i++) {
        int row = 16 * w + l / 4 + ((i % 4) >= 2 ? 8 : 0);
        int col = 8 * (i / 4) + 2 * (l % 4) + (i % 2);
        C[row * N + col] = d[i];
    }
}
