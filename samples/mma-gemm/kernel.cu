// mma-gemm: a 32x16 = (32x32)(32x16) half-precision GEMM on tensor cores, one CTA of four warps.
// Each warp computes one 16x8 tile of C with mma.sync.m16n8k16, two k-steps of 16; its A and B
// fragments come from shared memory through ldmatrix (B with .trans, since B is stored K x N).
#include <cuda_fp16.h>

constexpr int M = 32, N = 16, K = 32;

__global__ void mma_gemm(const __half* A, const __half* B, float* C) {
    __shared__ __align__(16) __half sA[M * K];
    __shared__ __align__(16) __half sB[K * N];
    int tid = threadIdx.x;
    for (int i = tid; i < M * K / 8; i += blockDim.x) reinterpret_cast<uint4*>(sA)[i] = reinterpret_cast<const uint4*>(A)[i];
    for (int i = tid; i < K * N / 8; i += blockDim.x) reinterpret_cast<uint4*>(sB)[i] = reinterpret_cast<const uint4*>(B)[i];
    __syncthreads();

    int warp = tid / 32, lane = tid % 32;
    int tm = (warp / 2) * 16;  // this warp's tile: rows tm..tm+15
    int tn = (warp % 2) * 8;   // columns tn..tn+7
    float acc[4] = {0.f, 0.f, 0.f, 0.f};
    for (int k0 = 0; k0 < K; k0 += 16) {
        unsigned a[4], b[2];
        // A tile 16x16 as four 8x8 matrices: lanes 8i..8i+7 point at the rows of matrix i
        // (matrix 1 is the lower-left, 2 the upper-right quarter, as the A fragment wants).
        int mi = lane / 8, r = lane % 8;
        unsigned pa = static_cast<unsigned>(__cvta_generic_to_shared(&sA[(tm + r + (mi & 1) * 8) * K + k0 + (mi >> 1) * 8]));
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                     : "=r"(a[0]), "=r"(a[1]), "=r"(a[2]), "=r"(a[3]) : "r"(pa));
        // B tile 16x8 stored K x N: two 8x8 matrices (k rows 0-7, 8-15), transposed on the way in.
        unsigned pb = static_cast<unsigned>(__cvta_generic_to_shared(&sB[(k0 + lane % 16) * N + tn]));
        asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];" : "=r"(b[0]), "=r"(b[1]) : "r"(pb));
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
                     "{%0, %1, %2, %3};"
                     : "+f"(acc[0]), "+f"(acc[1]), "+f"(acc[2]), "+f"(acc[3])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
    }
    // Accumulator fragment: lane holds (g, 2t), (g, 2t+1), (g+8, 2t), (g+8, 2t+1) of the tile.
    int g = lane / 4, t = lane % 4;
    C[(tm + g) * N + tn + 2 * t] = acc[0];
    C[(tm + g) * N + tn + 2 * t + 1] = acc[1];
    C[(tm + g + 8) * N + tn + 2 * t] = acc[2];
    C[(tm + g + 8) * N + tn + 2 * t + 1] = acc[3];
}
