// Tensor-core kernels our samples did not have, each checked by the host:
//  - GEMMs through the nvcuda::wmma API: half inputs with float and with half accumulators
//    (m16n16k16, m32n8k16, m8n32k16), bf16 and tf32 inputs (m16n16k16, m16n16k8), signed 8-bit
//    inputs with int accumulators, row- and column-major loads and stores, fill_fragment.
//    Operands are small integers and short binary fractions, so every sum is exact in any order
//    and the host's result is the only right one: compared bit for bit.
//  - a flash-attention forward pass (one warp, 16 queries, head dimension 16, 64 keys in blocks of
//    16): S = Q K^T and O += P V with mma.sync.m16n8k16 (inline PTX, fragments as the ISA lays them
//    out), the online softmax with ex2.approx.ftz.f32 and shuffles, P rounded to f16, the output
//    written as bf16 pairs with __float22bfloat162_rn. Compared with the host's double-precision
//    attention within what the f16/bf16 roundings and ex2.approx allow.
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <cmath>
#include <vector>
#include <mma.h>
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>

using namespace nvcuda;

static int failures = 0;
#define CHECK(cond, ...) do { if (!(cond)) { if (++failures <= 30) printf(__VA_ARGS__); } } while (0)

// C[M x N] (+)= A[M x K] (row-major) * B[K x N] (col-major), one warp per tile.
template <int TM, int TN, int TK, typename In, typename Acc>
__global__ void wmma_gemm(const In *a, const In *b, Acc *c, int M, int N, int K, bool colMajorOut) {
    int warp = threadIdx.x / 32;
    int tilesN = N / TN;
    int tm = warp / tilesN, tn = warp % tilesN;
    wmma::fragment<wmma::matrix_a, TM, TN, TK, In, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, TM, TN, TK, In, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, TM, TN, TK, Acc> fc;
    wmma::fill_fragment(fc, (Acc) 1);
    for (int k = 0; k < K; k += TK) {
        wmma::load_matrix_sync(fa, a + tm * TM * K + k, K);
        wmma::load_matrix_sync(fb, b + tn * TN * K + k, K);
        wmma::mma_sync(fc, fa, fb, fc);
    }
    if (colMajorOut) wmma::store_matrix_sync(c + tn * TN * M + tm * TM, fc, M, wmma::mem_col_major);
    else wmma::store_matrix_sync(c + tm * TM * N + tn * TN, fc, N, wmma::mem_row_major);
}

// tf32: inputs are floats, rounded to tf32 in the fragment (__float_to_tf32) as CUTLASS does.
__global__ void wmma_tf32(const float *a, const float *b, float *c, int M, int N, int K) {
    int warp = threadIdx.x / 32;
    int tilesN = N / 16;
    int tm = warp / tilesN, tn = warp % tilesN;
    wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 8, float> fc;
    wmma::fill_fragment(fc, 0.0f);
    for (int k = 0; k < K; k += 8) {
        wmma::load_matrix_sync(fa, a + tm * 16 * K + k, K);
        wmma::load_matrix_sync(fb, b + tn * 16 * K + k, K);
        for (int i = 0; i < fa.num_elements; i++) fa.x[i] = wmma::__float_to_tf32(fa.x[i]);
        for (int i = 0; i < fb.num_elements; i++) fb.x[i] = wmma::__float_to_tf32(fb.x[i]);
        wmma::mma_sync(fc, fa, fb, fc);
    }
    wmma::store_matrix_sync(c + tm * 16 * N + tn * 16, fc, N, wmma::mem_row_major);
}

// ---- flash attention ----
#define SEQ 64
#define HD 16

__device__ __forceinline__ void mma16816(float *d, const uint32_t *a, const uint32_t *b) {
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}
__device__ __forceinline__ uint32_t pack(__half lo, __half hi) {
    return (uint32_t) __half_as_ushort(lo) | (uint32_t) __half_as_ushort(hi) << 16;
}
__device__ __forceinline__ float ex2(float x) {
    float y;
    asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
    return y;
}

// q[16][HD], k[SEQ][HD], v[SEQ][HD] f16 row-major; o[16][HD] bf16.
__global__ void flash_attention(const __half *q, const __half *k, const __half *v, __nv_bfloat16 *o, float scale) {
    int lane = threadIdx.x, g = lane >> 2, t = lane & 3;
    // Q as the A operand (16 x 16): a0a1 row g, a2a3 row g+8, a4a5 row g cols +8, a6a7 row g+8 cols +8.
    uint32_t qa[4];
    qa[0] = pack(q[g * HD + 2 * t], q[g * HD + 2 * t + 1]);
    qa[1] = pack(q[(g + 8) * HD + 2 * t], q[(g + 8) * HD + 2 * t + 1]);
    qa[2] = pack(q[g * HD + 2 * t + 8], q[g * HD + 2 * t + 9]);
    qa[3] = pack(q[(g + 8) * HD + 2 * t + 8], q[(g + 8) * HD + 2 * t + 9]);
    float acc[2][4] = {};           // O: two 8-column tiles of the head dimension
    float m[2] = {-INFINITY, -INFINITY}, l[2] = {0, 0};  // rows g and g + 8
    const float c = scale * 1.4426950408889634f;  // log2(e): exp(x) = 2^(x log2 e)
    for (int kb = 0; kb < SEQ; kb += 16) {
        float s[2][4] = {};
        for (int j = 0; j < 2; j++) {
            // K^T as the B operand (k = head dim, n = key): b0b1 dims 2t, 2t+1 of key g; b2b3 dims +8.
            const __half *kr = k + (kb + 8 * j + g) * HD;
            uint32_t kb2[2] = {pack(kr[2 * t], kr[2 * t + 1]), pack(kr[2 * t + 8], kr[2 * t + 9])};
            mma16816(s[j], qa, kb2);
        }
        for (int r = 0; r < 2; r++) {
            float mx = fmaxf(fmaxf(s[0][2 * r], s[0][2 * r + 1]), fmaxf(s[1][2 * r], s[1][2 * r + 1]));
            mx = fmaxf(mx, __shfl_xor_sync(0xffffffff, mx, 1));
            mx = fmaxf(mx, __shfl_xor_sync(0xffffffff, mx, 2));
            float mNew = fmaxf(m[r], mx);
            float corr = ex2((m[r] - mNew) * c);
            float sum = 0;
            for (int j = 0; j < 2; j++)
                for (int e = 0; e < 2; e++) {
                    float p = ex2((s[j][2 * r + e] - mNew) * c);
                    s[j][2 * r + e] = p;
                    sum += p;
                }
            sum += __shfl_xor_sync(0xffffffff, sum, 1);
            sum += __shfl_xor_sync(0xffffffff, sum, 2);
            l[r] = l[r] * corr + sum;
            m[r] = mNew;
            for (int dt = 0; dt < 2; dt++) { acc[dt][2 * r] *= corr; acc[dt][2 * r + 1] *= corr; }
        }
        // P (16 x 16 keys) as the A operand: the accumulator layout of S is the A layout.
        uint32_t pa[4] = {pack(__float2half_rn(s[0][0]), __float2half_rn(s[0][1])), pack(__float2half_rn(s[0][2]), __float2half_rn(s[0][3])),
                          pack(__float2half_rn(s[1][0]), __float2half_rn(s[1][1])), pack(__float2half_rn(s[1][2]), __float2half_rn(s[1][3]))};
        for (int dt = 0; dt < 2; dt++) {
            // V as the B operand (k = key, n = head dim): b0b1 keys 2t, 2t+1 of dim g; b2b3 keys +8.
            const __half *vc = v + kb * HD + dt * 8 + g;
            uint32_t vb[2] = {pack(vc[(2 * t) * HD], vc[(2 * t + 1) * HD]), pack(vc[(2 * t + 8) * HD], vc[(2 * t + 9) * HD])};
            mma16816(acc[dt], pa, vb);
        }
    }
    for (int dt = 0; dt < 2; dt++)
        for (int r = 0; r < 2; r++) {
            __nv_bfloat162 pair = __float22bfloat162_rn(make_float2(acc[dt][2 * r] / l[r], acc[dt][2 * r + 1] / l[r]));
            memcpy(&o[(g + 8 * r) * HD + dt * 8 + 2 * t], &pair, 4);
        }
}

template <typename T> static T conv(float f);
template <> __half conv<__half>(float f) { return __float2half(f); }
template <> __nv_bfloat16 conv<__nv_bfloat16>(float f) { return __float2bfloat16(f); }
template <> signed char conv<signed char>(float f) { return (signed char) f; }
template <> float conv<float>(float f) { return f; }
static float val(__half h) { return __half2float(h); }
static float val(__nv_bfloat16 h) { return __bfloat162float(h); }
static float val(float f) { return f; }
static float val(int i) { return (float) i; }

// Runs one wmma GEMM configuration (M x N x K, 4 warps = 4 tiles) and compares bit for bit.
template <int TM, int TN, int TK, typename In, typename Acc>
static void gemm(const char *name, int M, int N, int K, bool colMajorOut, uint32_t seed) {
    std::vector<In> a(M * K), b(K * N);
    std::vector<float> fa(M * K), fb(K * N);
    for (int i = 0; i < M * K; i++) {
        seed = seed * 1664525u + 1013904223u;
        float x = (float) ((int) (seed >> 28) - 8) * (sizeof(In) == 1 ? 1.0f : 0.25f);
        a[i] = conv<In>(x); fa[i] = x;
    }
    for (int i = 0; i < K * N; i++) {
        seed = seed * 1664525u + 1013904223u;
        float x = (float) ((int) (seed >> 28) - 8) * (sizeof(In) == 1 ? 1.0f : 0.5f);
        b[i] = conv<In>(x); fb[i] = x;
    }
    In *da, *db; Acc *dc;
    cudaMalloc(&da, a.size() * sizeof(In)); cudaMalloc(&db, b.size() * sizeof(In)); cudaMalloc(&dc, M * N * sizeof(Acc));
    cudaMemcpy(da, a.data(), a.size() * sizeof(In), cudaMemcpyHostToDevice);
    cudaMemcpy(db, b.data(), b.size() * sizeof(In), cudaMemcpyHostToDevice);
    wmma_gemm<TM, TN, TK, In, Acc><<<1, 32 * (M / TM) * (N / TN)>>>(da, db, dc, M, N, K, colMajorOut);
    cudaError_t e = cudaDeviceSynchronize();
    CHECK(e == cudaSuccess, "%s: launch %s\n", name, cudaGetErrorName(e));
    std::vector<Acc> c(M * N);
    cudaMemcpy(c.data(), dc, c.size() * sizeof(Acc), cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            double s = 1;  // fill_fragment(1)
            for (int kk = 0; kk < K; kk++) s += (double) fa[i * K + kk] * fb[j * K + kk];  // B is column-major
            float got = val(colMajorOut ? c[j * M + i] : c[i * N + j]);
            if (got != (float) s) { bad++; CHECK(false, "%s: C[%d][%d] = %g, want %g\n", name, i, j, got, s); }
        }
    printf("%s: %d x %d x %d, %d wrong\n", name, M, N, K, bad);
    cudaFree(da); cudaFree(db); cudaFree(dc);
}

int main() {
    gemm<16, 16, 16, __half, float>("wmma m16n16k16 f16 -> f32", 32, 32, 48, false, 1);
    gemm<16, 16, 16, __half, __half>("wmma m16n16k16 f16 -> f16 (column-major C)", 32, 32, 32, true, 2);
    gemm<32, 8, 16, __half, float>("wmma m32n8k16 f16 -> f32", 64, 16, 32, false, 3);
    gemm<8, 32, 16, __half, __half>("wmma m8n32k16 f16 -> f16", 16, 64, 16, false, 4);
    gemm<16, 16, 16, __nv_bfloat16, float>("wmma m16n16k16 bf16 -> f32", 32, 32, 32, true, 5);
    gemm<16, 16, 16, signed char, int>("wmma m16n16k16 s8 -> s32", 32, 32, 64, false, 6);

    {   // tf32: short binary fractions, exact in tf32, so __float_to_tf32 keeps them.
        const int M = 32, N = 32, K = 24;
        std::vector<float> a(M * K), b(K * N);
        uint32_t s = 99;
        for (auto &x : a) { s = s * 1664525u + 1013904223u; x = (float) ((int) (s >> 26) - 32) / 16.0f; }
        for (auto &x : b) { s = s * 1664525u + 1013904223u; x = (float) ((int) (s >> 26) - 32) / 8.0f; }
        float *da, *db, *dc;
        cudaMalloc(&da, a.size() * 4); cudaMalloc(&db, b.size() * 4); cudaMalloc(&dc, M * N * 4);
        cudaMemcpy(da, a.data(), a.size() * 4, cudaMemcpyHostToDevice);
        cudaMemcpy(db, b.data(), b.size() * 4, cudaMemcpyHostToDevice);
        wmma_tf32<<<1, 128>>>(da, db, dc, M, N, K);
        cudaError_t e = cudaDeviceSynchronize();
        CHECK(e == cudaSuccess, "tf32: launch %s\n", cudaGetErrorName(e));
        std::vector<float> c(M * N);
        cudaMemcpy(c.data(), dc, c.size() * 4, cudaMemcpyDeviceToHost);
        int bad = 0;
        for (int i = 0; i < M; i++)
            for (int j = 0; j < N; j++) {
                double r = 0;
                for (int kk = 0; kk < K; kk++) r += (double) a[i * K + kk] * b[j * K + kk];
                if (c[i * N + j] != (float) r) { bad++; CHECK(false, "tf32: C[%d][%d] = %g, want %g\n", i, j, c[i * N + j], r); }
            }
        printf("wmma m16n16k8 tf32 -> f32: %d x %d x %d, %d wrong\n", M, N, K, bad);
    }

    {   // flash attention
        std::vector<__half> q(16 * HD), k(SEQ * HD), v(SEQ * HD);
        std::vector<float> fq(16 * HD), fk(SEQ * HD), fv(SEQ * HD);
        uint32_t s = 7;
        auto rnd = [&]() { s = s * 1664525u + 1013904223u; return ((float) (s >> 8) / 16777216.0f) * 2 - 1; };
        for (int i = 0; i < 16 * HD; i++) { q[i] = __float2half(rnd() * 2); fq[i] = __half2float(q[i]); }
        for (int i = 0; i < SEQ * HD; i++) { k[i] = __float2half(rnd() * 2); fk[i] = __half2float(k[i]); }
        for (int i = 0; i < SEQ * HD; i++) { v[i] = __float2half(rnd()); fv[i] = __half2float(v[i]); }
        __half *dq, *dk, *dv; __nv_bfloat16 *dout;
        cudaMalloc(&dq, q.size() * 2); cudaMalloc(&dk, k.size() * 2); cudaMalloc(&dv, v.size() * 2); cudaMalloc(&dout, 16 * HD * 2);
        cudaMemcpy(dq, q.data(), q.size() * 2, cudaMemcpyHostToDevice);
        cudaMemcpy(dk, k.data(), k.size() * 2, cudaMemcpyHostToDevice);
        cudaMemcpy(dv, v.data(), v.size() * 2, cudaMemcpyHostToDevice);
        float scale = 0.25f;  // 1 / sqrt(16)
        flash_attention<<<1, 32>>>(dq, dk, dv, dout, scale);
        cudaError_t e = cudaDeviceSynchronize();
        CHECK(e == cudaSuccess, "attention: launch %s\n", cudaGetErrorName(e));
        std::vector<__nv_bfloat16> out(16 * HD);
        cudaMemcpy(out.data(), dout, out.size() * 2, cudaMemcpyDeviceToHost);
        double worst = 0;
        for (int i = 0; i < 16; i++) {
            double sc[SEQ], mx = -1e300, sum = 0;
            for (int j = 0; j < SEQ; j++) {
                double d = 0;
                for (int x = 0; x < HD; x++) d += (double) fq[i * HD + x] * fk[j * HD + x];
                sc[j] = d * scale;
                mx = fmax(mx, sc[j]);
            }
            for (int j = 0; j < SEQ; j++) { sc[j] = exp(sc[j] - mx); sum += sc[j]; }
            for (int x = 0; x < HD; x++) {
                double r = 0;
                for (int j = 0; j < SEQ; j++) r += sc[j] * fv[j * HD + x];
                r /= sum;
                double got = __bfloat162float(out[i * HD + x]);
                // bf16 output (2^-9 relative), P in f16 (2^-11 each), ex2.approx (2 ulp of f32).
                double err = fabs(got - r);
                worst = fmax(worst, err);
                CHECK(err <= fabs(r) * 0x1p-8 + 0x1p-9, "attention: O[%d][%d] = %.6f, want %.6f\n", i, x, got, r);
            }
        }
        printf("flash attention 16 x %d keys x %d dims: worst error %.2e\n", SEQ, HD, worst);
    }

    if (failures) { printf("FAIL tensor_kernels (%d)\n", failures); return 1; }
    printf("PASS tensor_kernels\n");
    return 0;
}
