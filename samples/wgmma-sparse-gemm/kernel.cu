// wgmma-sparse-gemm: a 2:4 structured-sparse warpgroup multiply. A (64x32, f16) has two
// non-zeros in every chunk of four along a row; only they are stored (Ap, 64x16) with their
// positions (E, the metadata). C (64x32, f32) = A x B twice over: once with the stored A read
// from shared memory through a matrix descriptor (sparsity selector 0: threads 0 and 1 of each
// group of four give the metadata), once more accumulated with the stored A in registers
// (selector 1: threads 2 and 3), so both forms of wgmma.mma_async.sp.m64n32k32.f32.f16.f16 run.
#include <cstdint>

constexpr int M = 64, N = 32, K = 32, KP = K / 2; // KP: the stored (packed) columns of A

// Byte offset of byte b of a K-major row without swizzle (PTX ISA 9.7.15.5.1): core matrices of
// 8 rows x 16 bytes, 128 bytes each; the next one along K is 128 bytes on (leading byte offset),
// the next eight rows `sbo` bytes on (stride byte offset).
__device__ unsigned core_offset(int row, int b, unsigned sbo) { return (row / 8) * sbo + (b / 16) * 128 + (row % 8) * 16 + b % 16; }

// Its matrix descriptor: start >> 4, LBO 128 >> 4, SBO >> 4, no swizzle.
__device__ uint64_t desc(unsigned addr, unsigned sbo) {
    return (uint64_t)((addr >> 4) & 0x3FFF) | ((uint64_t)(128 >> 4) << 16) | ((uint64_t)(sbo >> 4) << 32);
}

#define D16 "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), \
            "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15])
#define DLIST "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15}"

// Ap: the stored A, row-major 64x16 f16 bits. Bt: B's 32 columns, each its 32 K elements.
// E: per row i and half h (columns 16h..16h+15), E[2i + h] holds the four chunks' 4-bit fields,
// chunk j at bits 4j..4j+3: the low 2 bits the position (0..3) of the chunk's first stored
// element, the high 2 bits the second's (PTX ISA 9.7.15.6.1).
extern "C" __global__ void wgmma_sparse_gemm(const uint16_t* Ap, const uint16_t* Bt, const uint32_t* E, float* C)
{
    __shared__ alignas(256) uint16_t sA[M * KP];
    __shared__ alignas(256) uint16_t sB[N * K];
    for (int i = threadIdx.x; i < M * KP; i += blockDim.x) sA[core_offset(i / KP, 2 * (i % KP), 256) / 2] = Ap[i];
    for (int i = threadIdx.x; i < N * K; i += blockDim.x) sB[core_offset(i / K, 2 * (i % K), 512) / 2] = Bt[i];
    // wgmma reads shared memory through the async proxy: make the generic stores visible to it.
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();

    int w = threadIdx.x / 32, l = threadIdx.x % 32, g = l / 4;
    // Metadata: thread 2s + h of each group of four (s the selector) holds rows g and g + 8 of
    // its warp's 16, columns 16h..16h+15: row g's chunks in bits 0..15, row g + 8's in 16..31.
    // Both thread pairs load it, so either selector finds it.
    uint32_t meta = E[2 * (16 * w + g) + l % 2] | (E[2 * (16 * w + g + 8) + l % 2] << 16);
    // The stored A from registers: the dense m64nNk16 f16 A fragment of the 64x16 stored matrix,
    // register q holding row g (+8 when q is odd), stored columns 2(l%4) and 2(l%4)+1 (+8 when q >= 2).
    uint32_t a[4];
    for (int q = 0; q < 4; q++) {
        int row = 16 * w + g + 8 * (q % 2), col = 2 * (l % 4) + 8 * (q / 2);
        a[q] = Ap[row * KP + col] | ((uint32_t)Ap[row * KP + col + 1] << 16);
    }
    float d[16];
    for (int i = 0; i < 16; i++) d[i] = 0.0f;
    // Pin the zeros, A and the metadata before the fence (nvcc may otherwise move them after it).
    for (int i = 0; i < 16; i++) asm volatile("" : "+f"(d[i]) :: "memory");
    for (int q = 0; q < 4; q++) asm volatile("" : "+r"(a[q]) :: "memory");
    asm volatile("" : "+r"(meta) :: "memory");
    uint64_t da = desc(static_cast<unsigned>(__cvta_generic_to_shared(sA)), 256);
    uint64_t db = desc(static_cast<unsigned>(__cvta_generic_to_shared(sB)), 512);
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
    asm volatile("{\n"
                 " .reg .pred p;\n"
                 " setp.ne.b32 p, %19, 0;\n"
                 " wgmma.mma_async.sp.sync.aligned.m64n32k32.f32.f16.f16 " DLIST ", %16, %17, %18, 0, p, 1, 1, 0, 0;\n"
                 "}"
                 : D16 : "l"(da), "l"(db), "r"(meta), "r"(0));
    asm volatile("{\n"
                 " .reg .pred p;\n"
                 " setp.ne.b32 p, %22, 0;\n"
                 " wgmma.mma_async.sp.sync.aligned.m64n32k32.f32.f16.f16 " DLIST ", {%16, %17, %18, %19}, %20, %21, 1, p, 1, 1, 0;\n"
                 "}"
                 : D16 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db), "r"(meta), "r"(1));
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
    // Accumulator fragment: warp w, lane l, element i is row 16w + l/4 (+8 when i%4 >= 2),
    // column 8*(i/4) + 2*(l%4) + i%2.
    for (int i = 0; i < 16; i++) C[(16 * w + g + ((i % 4) >= 2 ? 8 : 0)) * N + 8 * (i / 4) + 2 * (l % 4) + (i % 2)] = d[i];
}
