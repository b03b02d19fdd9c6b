// attention-tile: one warpgroup (128 threads) computes a 64-row attention forward tile,
// O = softmax(scale * Q K^T) V, the way FlashAttention-2/3 do it on Hopper:
//   S = Q K_b^T      wgmma.mma_async, Q and K_b read from shared memory by descriptors
//   online softmax   running row max m and row sum l, weights ex2.approx(S*scale_log2 - m*scale_log2),
//                    the accumulators rescaled by ex2(m_old - m_new) when the max grows
//   O += P V_b       wgmma.mma_async with A = P taken from registers (the S accumulators,
//                    converted to f16 in place: the accumulator fragment of S is the A fragment of P)
// over NB blocks of BC keys; finally O / l is stored.
//
// Q is 64 x 16 (head dim D = 16), K is (NB*BC) x 16, V is stored transposed (Vt: 16 x NB*BC) so
// that every operand is K-major. Thread 0 loads Q with the first block and each block's K and Vt
// with TMA (32-byte swizzle: a 16-half row is exactly one 32-byte swizzle span) onto one mbarrier
// per block, all at the start, so block b+1 lands while block b is being computed.
#include <cuda.h>
#include <cstdint>

constexpr int M = 64, D = 16, BC = 16, NB = 3;

// Matrix descriptor of a K-major tile with 32-byte swizzle (PTX ISA 9.7.15.5.1): start address >> 4
// in bits 0-13; leading byte offset unused for this layout (1 by convention); stride byte offset
// 256 (eight 32-byte rows, one swizzle atom) in bits 32-45; mode 3 (32B) in bits 62-63.
__device__ uint64_t sw32_desc(unsigned addr) {
    return (uint64_t)((addr >> 4) & 0x3FFF) | ((uint64_t)1 << 16) | ((uint64_t)(256 >> 4) << 32) | ((uint64_t)3 << 62);
}

__device__ void tma_load_2d(unsigned dst, const CUtensorMap* map, int x, int y, unsigned bar) {
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
                 :: "r"(dst), "l"(map), "r"(x), "r"(y), "r"(bar) : "memory");
}

__device__ void wait_phase0(unsigned bar) {
    asm volatile("{\n"
                 " .reg .pred done;\n"
                 "WAIT:\n"
                 " mbarrier.try_wait.parity.shared::cta.b64 done, [%0], 0;\n"
                 " @!done bra WAIT;\n"
                 "}" :: "r"(bar) : "memory");
}

__device__ float ex2(float x) {
    float y;
    asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
    return y;
}

__device__ uint32_t pack_f16x2(float lo, float hi) {
    uint32_t r;
    asm("cvt.rn.f16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(hi), "f"(lo));   // the first source goes high
    return r;
}

#define F8(a) "+f"(a[0]), "+f"(a[1]), "+f"(a[2]), "+f"(a[3]), "+f"(a[4]), "+f"(a[5]), "+f"(a[6]), "+f"(a[7])

// scale_log2 is the softmax scale with log2(e) folded in by the host, as FlashAttention does
// (softmax_scale_log2 = softmax_scale * M_LOG2E), so each weight is one ex2.
extern "C" __global__ void attention_tile(const __grid_constant__ CUtensorMap mapQ, const __grid_constant__ CUtensorMap mapK,
                                          const __grid_constant__ CUtensorMap mapVt, float scale_log2, float* O)
{
    __shared__ alignas(256) uint16_t sQ[M * D];
    __shared__ alignas(256) uint16_t sK[NB][BC * D];
    __shared__ alignas(256) uint16_t sVt[NB][D * BC];
    __shared__ alignas(8) uint64_t full[NB];
    unsigned q = static_cast<unsigned>(__cvta_generic_to_shared(sQ));

    if (threadIdx.x == 0) {
        for (int b = 0; b < NB; b++) {
            unsigned bar = static_cast<unsigned>(__cvta_generic_to_shared(&full[b]));
            asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(bar));
        }
        for (int b = 0; b < NB; b++) {
            unsigned bar = static_cast<unsigned>(__cvta_generic_to_shared(&full[b]));
            unsigned bytes = 2 * (BC * D + D * BC) + (b == 0 ? 2 * M * D : 0);
            asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(bar), "r"(bytes) : "memory");
            if (b == 0) tma_load_2d(q, &mapQ, 0, 0, bar);
            tma_load_2d(static_cast<unsigned>(__cvta_generic_to_shared(sK[b])), &mapK, 0, b * BC, bar);
            tma_load_2d(static_cast<unsigned>(__cvta_generic_to_shared(sVt[b])), &mapVt, b * BC, 0, bar);
        }
    }
    __syncthreads();   // the inits above are visible before anyone waits

    // Per thread: rows r0 = 16w + l/4 and r0 + 8 of the tile; the S and O fragments (m64n16, f32)
    // hold element i at row r0 (+8 when i%4 >= 2), column 8*(i/4) + 2*(l%4) + i%2.
    float o[8], s[8];
    float m[2] = {-INFINITY, -INFINITY}, l[2] = {0.f, 0.f};
    for (int i = 0; i < 8; i++) o[i] = 0.f;

    for (int b = 0; b < NB; b++) {
        wait_phase0(static_cast<unsigned>(__cvta_generic_to_shared(&full[b])));

        // S = Q K_b^T: m64n16k16, both operands from shared memory.
        for (int i = 0; i < 8; i++) s[i] = 0.f;
        for (int i = 0; i < 8; i++) asm volatile("" : "+f"(s[i]) :: "memory");
        asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
        uint64_t dq = sw32_desc(q), dk = sw32_desc(static_cast<unsigned>(__cvta_generic_to_shared(sK[b])));
        asm volatile("{\n"
                     " .reg .pred p;\n"
                     " setp.ne.b32 p, %10, 0;\n"
                     " wgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16 "
                     "{%0, %1, %2, %3, %4, %5, %6, %7}, %8, %9, p, 1, 1, 0, 0;\n"
                     "}"
                     : F8(s) : "l"(dq), "l"(dk), "r"(1));
        asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
        asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");

        // Online softmax, one row half at a time (h = 0: row r0, h = 1: row r0 + 8). The four
        // lanes of a quad share a row, so the row max is reduced across them.
        uint32_t p[4];
        for (int h = 0; h < 2; h++) {
            float mx = m[h];
            for (int j = 0; j < 2; j++) mx = fmaxf(mx, fmaxf(s[4 * j + 2 * h], s[4 * j + 2 * h + 1]));
            mx = fmaxf(mx, __shfl_xor_sync(0xffffffff, mx, 1));
            mx = fmaxf(mx, __shfl_xor_sync(0xffffffff, mx, 2));
            float alpha = ex2((m[h] - mx) * scale_log2);   // 0 for the first block: m = -inf
            float msc = mx * scale_log2, sum = 0.f;
            for (int j = 0; j < 2; j++) {
                float p0 = ex2(s[4 * j + 2 * h] * scale_log2 - msc);
                float p1 = ex2(s[4 * j + 2 * h + 1] * scale_log2 - msc);
                sum += p0 + p1;
                // S's accumulator fragment is P's A fragment (mma m16n8k16 layout): a0 = row r0
                // cols 2t..2t+1, a1 = row r0+8, a2 = row r0 cols 8+2t.., a3 = row r0+8 cols 8+2t..
                p[2 * j + h] = pack_f16x2(p0, p1);
                o[4 * j + 2 * h] *= alpha;
                o[4 * j + 2 * h + 1] *= alpha;
            }
            l[h] = l[h] * alpha + sum;   // this lane's part of the row sum; reduced at the end
            m[h] = mx;
        }

        // O += P V_b: m64n16k16, A = P from registers, B = V_b (stored as Vt) from shared memory.
        for (int i = 0; i < 8; i++) asm volatile("" : "+f"(o[i]) :: "memory");
        for (int i = 0; i < 4; i++) asm volatile("" : "+r"(p[i]) :: "memory");
        asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
        uint64_t dv = sw32_desc(static_cast<unsigned>(__cvta_generic_to_shared(sVt[b])));
        asm volatile("{\n"
                     " .reg .pred p;\n"
                     " setp.ne.b32 p, %13, 0;\n"
                     " wgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16 "
                     "{%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9, %10, %11}, %12, p, 1, 1, 0;\n"
                     "}"
                     : F8(o) : "r"(p[0]), "r"(p[1]), "r"(p[2]), "r"(p[3]), "l"(dv), "r"(1));
        asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
        asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
    }

    int w = threadIdx.x / 32, ln = threadIdx.x % 32;
    for (int h = 0; h < 2; h++) {
        l[h] += __shfl_xor_sync(0xffffffff, l[h], 1);
        l[h] += __shfl_xor_sync(0xffffffff, l[h], 2);
    }
    for (int i = 0; i < 8; i++) {
        int h = (i % 4) >= 2 ? 1 : 0;
        int row = 16 * w + ln / 4 + 8 * h;
        int col = 8 * (i / 4) + 2 * (ln % 4) + (i % 2);
        O[row * D + col] = o[i] / l[h];
    }
}
