// wgmma-b1-popc: single-bit warpgroup multiply. C (64x16, s32) = popc(A AND B) twice over: once
// with A and B read from shared memory through matrix descriptors, once more accumulated with A
// from registers, so both forms of wgmma.mma_async.m64nNk256.s32.b1.b1.and.popc take part.
#include <cstdint>

constexpr int M = 64, N = 16, KW = 8; // a row of K = 256 bits is 8 32-bit words

// Byte offset of byte kb (0..31) of a K-major row without swizzle (PTX ISA 9.7.15.5.1): core
// matrices of 8 rows x 16 bytes, 128 bytes each; the next core matrix along K is 128 bytes on
// (leading byte offset), the next along M or N 256 bytes on (stride byte offset).
__device__ unsigned core_offset(int row, int kb) { return (row / 8) * 256 + (kb / 16) * 128 + (row % 8) * 16 + kb % 16; }

// Its matrix descriptor: start >> 4, LBO 128 >> 4, SBO 256 >> 4, no swizzle.
__device__ uint64_t desc(unsigned addr) {
    return (uint64_t)((addr >> 4) & 0x3FFF) | ((uint64_t)(128 >> 4) << 16) | ((uint64_t)(256 >> 4) << 32);
}

#define D8 "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]), "+r"(d[6]), "+r"(d[7])

// A: 64 rows, Bt: 16 columns of B, each 256 bits as 8 words, bit k of a row at bit k % 32 of word k / 32.
extern "C" __global__ void wgmma_b1_popc(const uint32_t* A, const uint32_t* Bt, int* C)
{
    __shared__ alignas(256) uint32_t sA[M * KW];
    __shared__ alignas(256) uint32_t sB[N * KW];
    for (int i = threadIdx.x; i < M * KW; i += blockDim.x) sA[core_offset(i / KW, 4 * (i % KW)) / 4] = A[i];
    for (int i = threadIdx.x; i < N * KW; i += blockDim.x) sB[core_offset(i / KW, 4 * (i % KW)) / 4] = Bt[i];
    // wgmma reads shared memory through the async proxy: make the generic stores visible to it.
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();

    // A from registers (the m16n8k256 .b1 fragment per warp): register q holds 32 bits of row
    // 16w + l/4 (+8 when q is odd), starting at column 32*(l%4) (+128 when q >= 2).
    int w = threadIdx.x / 32, l = threadIdx.x % 32;
    uint32_t a[4];
    for (int q = 0; q < 4; q++) a[q] = A[(16 * w + l / 4 + 8 * (q % 2)) * KW + (l % 4) + 4 * (q / 2)];
    int d[8];
    for (int i = 0; i < 8; i++) d[i] = 0;
    // Pin the zeros and A before the fence (nvcc may otherwise move them after it).
    for (int i = 0; i < 8; i++) asm volatile("" : "+r"(d[i]) :: "memory");
    for (int q = 0; q < 4; q++) asm volatile("" : "+r"(a[q]) :: "memory");
    uint64_t da = desc(static_cast<unsigned>(__cvta_generic_to_shared(sA)));
    uint64_t db = desc(static_cast<unsigned>(__cvta_generic_to_shared(sB)));
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
    asm volatile("{\n"
                 " .reg .pred p;\n"
                 " setp.ne.b32 p, %10, 0;\n"
                 " wgmma.mma_async.sync.aligned.m64n16k256.s32.b1.b1.and.popc {%0, %1, %2, %3, %4, %5, %6, %7}, %8, %9, p;\n"
                 "}"
                 : D8 : "l"(da), "l"(db), "r"(0));
    asm volatile("{\n"
                 " .reg .pred p;\n"
                 " setp.ne.b32 p, %13, 0;\n"
                 " wgmma.mma_async.sync.aligned.m64n16k256.s32.b1.b1.and.popc {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9, %10, %11}, %12, p;\n"
                 "}"
                 : D8 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db), "r"(1));
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
    // Accumulator fragment: warp w, lane l, element i is row 16w + l/4 (+8 when i%4 >= 2),
    // column 8*(i/4) + 2*(l%4) + i%2.
    for (int i = 0; i < 8; i++) C[(16 * w + l / 4 + ((i % 4) >= 2 ? 8 : 0)) * N + 8 * (i / 4) + 2 * (l % 4) + (i % 2)] = d[i];
}
