// cuda_fp16.h / cuda_bf16.h / cuda_fp8.h intrinsics, f32 directed-rounding intrinsics, float to
// integer conversions and f64 arithmetic, each computed by a kernel over many inputs (zeros,
// infinities, NaN, f32 and f16 subnormals, ties of every narrow format, values near each
// format's largest finite one, random values) and compared bit for bit with the host: the host
// versions of the same intrinsics (cuda_fp16.hpp, cuda_bf16.hpp and cuda_fp8.hpp implement
// them in C++) or careful C (the host's own IEEE arithmetic in the needed rounding mode).
// Approximate functions (__expf, __logf, __sinf, __cosf, __tanhf, hexp2, hsqrt, ...) are checked
// against their documented error bounds instead. Prints one line per mismatch, then the totals.
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <cmath>
#include <cfenv>
#include <vector>
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cuda_fp8.h>

#define K 104  // result words per input

static __host__ __device__ uint32_t fbits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static __host__ __device__ float bitsf(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static __host__ __device__ uint32_t hb(__half h) { return __half_as_ushort(h); }
static __host__ __device__ uint32_t bb(__nv_bfloat16 h) { return __bfloat16_as_ushort(h); }
static __host__ __device__ uint32_t h2b(__half2 h) { uint32_t u; memcpy(&u, &h, 4); return u; }
static __host__ __device__ uint32_t b2b(__nv_bfloat162 h) { uint32_t u; memcpy(&u, &h, 4); return u; }

// The exact slots (0..63) and the approximate ones (64..K-1).
__global__ void exact_ops(const float *xs, int n, uint32_t *out, uint64_t *out64) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float a = xs[i], b = xs[(i * 7 + 3) % n], c = xs[(i * 13 + 5) % n];
    uint32_t *o = out + (size_t) i * K;
    __half ha = __float2half_rn(a), hb_ = __float2half_rn(b), hc = __float2half_rn(c);
    __nv_bfloat16 ba = __float2bfloat16_rn(a), bb_ = __float2bfloat16_rn(b), bc = __float2bfloat16_rn(c);
    o[0] = hb(ha);
    o[1] = hb(__float2half_rz(a));
    o[2] = hb(__float2half_rd(a));
    o[3] = hb(__float2half_ru(a));
    o[4] = bb(ba);
    o[5] = bb(__float2bfloat16_rz(a));
    o[6] = bb(__float2bfloat16_rd(a));
    o[7] = bb(__float2bfloat16_ru(a));
    o[8] = fbits(__half2float(ha));
    o[9] = hb(__hadd(ha, hb_));
    o[10] = hb(__hsub(ha, hb_));
    o[11] = hb(__hmul(ha, hb_));
    o[12] = hb(__hfma(ha, hb_, hc));
    o[13] = hb(__hfma_relu(ha, hb_, hc));
    o[14] = hb(__hfma_sat(ha, hb_, hc));
    o[15] = hb(__hmax_nan(ha, hb_));
    o[16] = hb(__hmin(ha, hb_));
    o[17] = hb(__hmax(ha, hb_));
    o[18] = hb(__hmin_nan(ha, hb_));
    o[19] = hb(__hdiv(ha, hb_));
    o[20] = bb(__hadd(ba, bb_));
    o[21] = bb(__hsub(ba, bb_));
    o[22] = bb(__hmul(ba, bb_));
    o[23] = bb(__hfma(ba, bb_, bc));
    o[24] = bb(__hfma_relu(ba, bb_, bc));
    o[25] = bb(__hmax_nan(ba, bb_));
    o[26] = bb(__hmin(ba, bb_));
    o[27] = fbits(__bfloat162float(ba));
    o[28] = b2b(__float22bfloat162_rn(make_float2(a, b)));
    o[29] = h2b(__floats2half2_rn(a, b));
    o[30] = h2b(__hfma2(__halves2half2(ha, hb_), __halves2half2(hb_, hc), __halves2half2(hc, ha)));
    o[31] = b2b(__hmul2(__halves2bfloat162(ba, bb_), __halves2bfloat162(bc, ba)));
    o[32] = __nv_cvt_float2_to_fp8x2(make_float2(a, b), __NV_SATFINITE, __NV_E4M3);
    o[33] = __nv_cvt_float2_to_fp8x2(make_float2(a, b), __NV_SATFINITE, __NV_E5M2);
    {
        __half2_raw r = __nv_cvt_fp8x2_to_halfraw2((__nv_fp8x2_storage_t) (i * 0x0101 * 37 ^ fbits(a)), __NV_E4M3);
        o[34] = r.x | (uint32_t) r.y << 16;
        r = __nv_cvt_fp8x2_to_halfraw2((__nv_fp8x2_storage_t) (i * 0x0101 * 37 ^ fbits(a)), __NV_E5M2);
        o[35] = r.x | (uint32_t) r.y << 16;
    }
    __half2_raw h2r = __halves2half2(ha, hb_);
    o[36] = __nv_cvt_halfraw2_to_fp8x2(h2r, __NV_SATFINITE, __NV_E4M3);
    __nv_bfloat162_raw b2r = __halves2bfloat162(ba, bb_);
    o[37] = __nv_cvt_bfloat16raw2_to_fp8x2(b2r, __NV_SATFINITE, __NV_E5M2);
    o[38] = (uint32_t) __float2int_rn(a);
    o[39] = (uint32_t) __float2int_rz(a);
    o[40] = (uint32_t) __float2int_rd(a);
    o[41] = (uint32_t) __float2int_ru(a);
    o[42] = __float2uint_rn(a);
    o[43] = __float2uint_rd(a);
    o[44] = fbits(__fdiv_rz(a, b));
    o[45] = fbits(__fdiv_ru(a, b));
    o[46] = fbits(__fmul_rd(a, b));
    o[47] = fbits(__fadd_ru(a, b));
    o[48] = fbits(__fsqrt_ru(a));
    o[49] = fbits(__fsqrt_rd(a));
    o[50] = fbits(__frcp_rn(a));
    o[51] = fbits(__frcp_rz(a));
    o[52] = fbits(__fmaf_rz(a, b, c));
    o[53] = fbits(__fmaf_ru(a, b, c));
    o[54] = fbits(__fdiv_rn(a, b));
    o[55] = fbits(__int2float_rz((int) fbits(b)));
    o[56] = fbits(__uint2float_ru(fbits(c)));
    o[57] = fbits(__ll2float_rd((long long) fbits(a) << 20 ^ fbits(b)));
    o[58] = fbits(__double2float_rz((double) a * (double) b));
    o[59] = fbits(__double2float_ru((double) a / 3.0));
    o[60] = hb(__double2half((double) a * (double) b));
    o[61] = hb(__hneg(__habs(ha)));
    o[62] = hb(__ushort2half_rn((unsigned short) fbits(a)));
    o[63] = hb(__int2half_rd((int) fbits(a) >> 8));
    // f64: fma, division, square root, conversions to integers (exact or correctly rounded).
    double da = (double) a * 1.0000001, db = (double) b - 0.25, dc = (double) c;
    uint64_t *p = out64 + (size_t) i * 8;
    double r;
    r = fma(da, db, dc); memcpy(&p[0], &r, 8);
    r = da / db; memcpy(&p[1], &r, 8);
    r = sqrt(da); memcpy(&p[2], &r, 8);
    r = __dadd_rd(da, db); memcpy(&p[3], &r, 8);
    p[4] = (uint64_t) __double2ll_rn(da);
    p[5] = __double2ull_rz(da);
    p[6] = (uint64_t) __float2ll_ru(a);
    p[7] = __float2ull_rd(a);
    // Approximate functions: compared with their documented bounds.
    o[64] = fbits(__expf(a));
    o[65] = fbits(__logf(a));
    o[66] = fbits(__sinf(a));
    o[67] = fbits(__cosf(a));
    o[68] = fbits(__tanhf(a));
    o[69] = fbits(__fdividef(a, b));
    o[70] = fbits(__exp10f(a));
    o[71] = fbits(__log2f(a));
    o[72] = hb(hexp2(ha));
    o[73] = hb(hsqrt(ha));
    o[74] = hb(hrsqrt(ha));
    o[75] = hb(hlog2(ha));
    o[76] = hb(hrcp(ha));
    o[77] = hb(htanh_approx(ha));
    o[78] = h2b(h2exp(__halves2half2(ha, hb_)));
    o[79] = bb(hexp2(ba));
    o[80] = bb(hsqrt(ba));
    o[81] = bb(hrcp(ba));
    o[82] = hb(hexp(ha));
    o[83] = hb(hlog(ha));
    o[84] = fbits(__frsqrt_rn(a));
    o[85] = fbits(exp2f(a));  // not fast-math: the library's exp2f (ex2.approx.ftz on sm_90 too)
    // More exact ones: rounding to integers in half precision, saturating half arithmetic, fp8 without saturation.
    o[86] = hb(hceil(ha));
    o[87] = hb(hfloor(ha));
    o[88] = bb(htrunc(ba));
    o[89] = hb(hrint(ha));
    o[90] = (uint32_t) __half2int_rn(ha);
    o[91] = (uint32_t) (int) __half2short_rz(ha);
    o[92] = hb(__hadd_sat(ha, hb_));
    o[93] = hb(__hmul_sat(ha, hb_));
    o[94] = __nv_cvt_float_to_fp8(a, __NV_NOSAT, __NV_E4M3);
    o[95] = h2b(__hmax2_nan(__halves2half2(ha, hb_), __halves2half2(hb_, hc)));
    o[96] = (uint32_t) __bfloat162int_rz(ba);
    o[97] = bb(__double2bfloat16((double) a * 3.0));
    // Integer dot products and sum of absolute difference, as int8 GEMMs and quantized conversions use them.
    o[98] = (uint32_t) __dp4a((int) fbits(a), (int) fbits(b), (int) fbits(c));
    o[99] = __dp4a(fbits(a), fbits(b), fbits(c));
    o[100] = (uint32_t) __dp2a_hi((int) fbits(a), (int) fbits(b), (int) fbits(c));
    o[101] = __sad((int) fbits(a), (int) fbits(b), fbits(c));
}

// atomicAdd on __half, __half2, __nv_bfloat16 and __nv_bfloat162 (atom.add.noftz), in global and
// shared memory; the values make every partial sum exact, so any order gives the same bits.
__global__ void half_atomics(__half *h, __half2 *h2, __nv_bfloat16 *b, __nv_bfloat162 *b2, uint32_t *sharedOut) {
    __shared__ __half sh;
    __shared__ __nv_bfloat162 sb2;
    int i = threadIdx.x;
    if (i == 0) { sh = __float2half(0.0f); sb2 = __floats2bfloat162_rn(0.0f, 0.0f); }
    __syncthreads();
    __half v = __float2half((float) (i % 8 - 3) * 0.5f);                   // sum 64, partial sums multiples of 0.5 below 2^10
    __nv_bfloat16 w = __float2bfloat16((float) (i % 4 - 1));                // sum 128, partial sums integers below 256
    atomicAdd(h, v);
    atomicAdd(h2, __halves2half2(v, __hneg(v)));
    atomicAdd(b, w);
    atomicAdd(b2, __halves2bfloat162(w, __hneg(w)));
    atomicAdd(&sh, v);
    atomicAdd(&sb2, __halves2bfloat162(w, w));
    __syncthreads();
    if (i == 0) { sharedOut[0] = hb(sh); sharedOut[1] = b2b(sb2); }
}

static float h2f(uint32_t h) { return __half2float(__ushort_as_half((unsigned short) h)); }
static float bf2f(uint32_t h) { return __bfloat162float(__ushort_as_bfloat16((unsigned short) h)); }
static bool isnanh(uint32_t h) { return (h & 0x7C00) == 0x7C00 && (h & 0x3FF); }
static bool isnanb(uint32_t h) { return (h & 0x7F80) == 0x7F80 && (h & 0x7F); }

// Host f32 arithmetic in a given rounding mode (SSE honours fesetround; volatile stops folding).
static float fl_div(float a, float b, int m) { fesetround(m); volatile float x = a, y = b; float r = x / y; fesetround(FE_TONEAREST); return r; }
static float fl_mul(float a, float b, int m) { fesetround(m); volatile float x = a, y = b; float r = x * y; fesetround(FE_TONEAREST); return r; }
static float fl_add(float a, float b, int m) { fesetround(m); volatile float x = a, y = b; float r = x + y; fesetround(FE_TONEAREST); return r; }
static float fl_sqrt(float a, int m) { fesetround(m); volatile float x = a; float r = sqrtf(x); fesetround(FE_TONEAREST); return r; }
static float fl_fma(float a, float b, float c, int m) { fesetround(m); volatile float x = a, y = b, z = c; float r = fmaf(x, y, z); fesetround(FE_TONEAREST); return r; }
static float fl_i2f(long long v, int m) { fesetround(m); volatile long long x = v; float r = (float) x; fesetround(FE_TONEAREST); return r; }
static float fl_u2f(unsigned v, int m) { fesetround(m); volatile unsigned long long x = v; float r = (float) x; fesetround(FE_TONEAREST); return r; }
static float fl_d2f(double v, int m) { fesetround(m); volatile double x = v; float r = (float) x; fesetround(FE_TONEAREST); return r; }
static double dl_add(double a, double b, int m) { fesetround(m); volatile double x = a, y = b; double r = x + y; fesetround(FE_TONEAREST); return r; }
// a*b+c rounded to odd in double (truncated, lowest bit set when inexact): rounding that once
// more to a format of at most 51 bits gives the exact sum rounded once (round-to-odd).
static double fma_odd(double a, double b, double c) {
    feclearexcept(FE_INEXACT);
    fesetround(FE_TOWARDZERO);
    volatile double x = a, y = b, z = c;
    double r = fma(x, y, z);
    bool inexact = fetestexcept(FE_INEXACT);
    fesetround(FE_TONEAREST);
    if (inexact && std::isfinite(r)) { uint64_t u; memcpy(&u, &r, 8); u |= 1; memcpy(&r, &u, 8); }
    return r;
}
// The device's f32 NaN (canonical) for comparisons of results that may be NaN.
static uint32_t canon(float f) { return std::isnan(f) ? 0x7FFFFFFFu : fbits(f); }

// Float to integer as cvt.rXi.sNN.f32 defines it: rounded, saturated, NaN gives 0.
static long long f2i(double v, int mode, long long lo, long long hi) {
    if (std::isnan(v)) return 0;
    double r = mode == 0 ? nearbyint(v) : mode == 1 ? trunc(v) : mode == 2 ? floor(v) : ceil(v);
    if (r <= (double) lo) return lo;
    if (r >= (double) hi) return hi;
    return (long long) r;
}
static unsigned long long f2u(double v, int mode, unsigned long long hi) {
    if (std::isnan(v)) return 0;
    double r = mode == 0 ? nearbyint(v) : mode == 1 ? trunc(v) : mode == 2 ? floor(v) : ceil(v);
    if (r <= 0) return 0;
    if (r >= 18446744073709551616.0 || (hi != ~0ull && r >= (double) hi)) return hi;
    return (unsigned long long) r;
}

static int failures = 0, checks = 0;
static float cur_c;  // the third operand of the input being checked, for the message
static void check(const char *what, int i, float a, float b, uint64_t got, uint64_t want) {
    checks++;
    if (got == want) return;
    if (++failures <= 60) printf("MISMATCH %s input %d (a=%a b=%a c=%a): device 0x%llx host 0x%llx\n", what, i, a, b, cur_c,
                                 (unsigned long long) got, (unsigned long long) want);
}
// An approximate result within `bound` of `exact` (absolute or relative), NaN and infinity exactly.
static void approx(const char *what, int i, float a, double got, double exact, double absb, double relb) {
    checks++;
    bool ok;
    if (std::isnan(exact)) ok = std::isnan(got);
    else if (std::isinf(exact)) ok = got == exact;
    else ok = !std::isnan(got) && (fabs(got - exact) <= absb || fabs(got - exact) <= relb * fabs(exact));
    if (!ok && ++failures <= 60) printf("OUT OF BOUND %s input %d (a=%a): device %a exact %a\n", what, i, a, got, exact);
}

int main() {
    std::vector<float> xs;
    const float specials[] = {0.0f, -0.0f, INFINITY, -INFINITY, NAN, -NAN, 1.0f, -1.0f, 0.5f, 2.0f, 3.0f, -3.0f,
        65504.0f, 65519.996f, 65520.0f, -65520.0f, 65536.0f, 448.0f, 464.0f, 465.0f, 480.0f, 57344.0f, 61440.0f, 61441.0f,
        5.9604645e-8f /* 2^-24 */, 2.9802322e-8f /* 2^-25, a tie */, 8.940697e-8f /* 3*2^-25 */, 6.1035156e-5f, 6.097555e-5f,
        1.0009766f /* 1 + 2^-10 */, 1.00048828125f /* 1 + 2^-11: f16 tie */, 1.00146484375f /* 1 + 3*2^-11 */,
        1.00390625f /* 1 + 2^-8: bf16 tie */, 1.01171875f /* 1 + 3*2^-8 */, 1e-40f, -1e-40f, 1.4e-45f, 1.1754944e-38f,
        3.4028235e38f, -3.4028235e38f, 2147483520.0f, 2147483648.0f, -2147483648.0f, 4294967296.0f, 0.49999997f, 2.5f,
        -2.5f, 1.5f, -0.5f, 9.2233720e18f, 1.8446744e19f, 0.0625f, 0.001953125f /* 2^-9: e4m3 min subnormal */,
        0.0009765625f /* 2^-10 */, 1.5258789e-5f /* 2^-16: e5m2 min subnormal */, 7.6293945e-6f, 240.0f, 232.0f, 248.0f,
        0.75f, 100.0f, -100.0f, 10.0f, 88.7f, -87.0f, 3.14159265f, 6.2831853f, -6.2831853f, 12.5f, 20.0f, -20.0f};
    for (float f : specials) xs.push_back(f);
    uint32_t s = 12345;
    while (xs.size() < 2048) {
        s = s * 1664525u + 1013904223u;
        uint32_t r = s;
        s = s * 1664525u + 1013904223u;
        float f;
        switch (xs.size() % 4) {
        case 0: f = bitsf(r); break;                                          // any pattern
        case 1: f = ldexpf((float) (r >> 8) / 16777216.0f, (int) (s >> 27) - 20) * ((s & 1) ? -1 : 1); break;  // [2^-21, 2^11)
        case 2: f = bitsf((r & 0x803FFFFFu) | ((uint32_t) (112 + (s >> 28)) << 23)); break;  // f16 range, wide fractions
        default: f = ((float) (int) (r >> 20) - 2048.0f) / 64.0f; break;    // short fractions: ties of narrow formats
        }
        xs.push_back(f);
    }
    int n = (int) xs.size();
    float *dx; uint32_t *dout; uint64_t *dout64;
    cudaMalloc(&dx, n * sizeof(float));
    cudaMalloc(&dout, (size_t) n * K * 4);
    cudaMalloc(&dout64, (size_t) n * 8 * 8);
    cudaMemcpy(dx, xs.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    exact_ops<<<(n + 127) / 128, 128>>>(dx, n, dout, dout64);
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) { printf("FAIL half_intrinsics: launch %s\n", cudaGetErrorName(e)); return 1; }
    std::vector<uint32_t> out((size_t) n * K);
    std::vector<uint64_t> out64((size_t) n * 8);
    cudaMemcpy(out.data(), dout, out.size() * 4, cudaMemcpyDeviceToHost);
    cudaMemcpy(out64.data(), dout64, out64.size() * 8, cudaMemcpyDeviceToHost);

    for (int i = 0; i < n; i++) {
        float a = xs[i], b = xs[(i * 7 + 3) % n], c = xs[(i * 13 + 5) % n];
        const uint32_t *o = &out[(size_t) i * K];
        cur_c = c;
        __half ha = __float2half_rn(a), hb_ = __float2half_rn(b), hc = __float2half_rn(c);
        __nv_bfloat16 ba = __float2bfloat16_rn(a), bb_ = __float2bfloat16_rn(b), bc = __float2bfloat16_rn(c);
        float fa = __half2float(ha), fb = __half2float(hb_), fc = __half2float(hc);
        float ga = __bfloat162float(ba), gb = __bfloat162float(bb_), gc = __bfloat162float(bc);
        check("__float2half_rn", i, a, b, o[0], hb(ha));
        check("__float2half_rz", i, a, b, o[1], hb(__float2half_rz(a)));
        check("__float2half_rd", i, a, b, o[2], hb(__float2half_rd(a)));
        check("__float2half_ru", i, a, b, o[3], hb(__float2half_ru(a)));
        check("__float2bfloat16_rn", i, a, b, o[4], bb(ba));
        check("__float2bfloat16_rz", i, a, b, o[5], bb(__float2bfloat16_rz(a)));
        check("__float2bfloat16_rd", i, a, b, o[6], bb(__float2bfloat16_rd(a)));
        check("__float2bfloat16_ru", i, a, b, o[7], bb(__float2bfloat16_ru(a)));
        check("__half2float", i, a, b, o[8], fbits(fa));
        check("__hadd", i, a, b, o[9], hb(__hadd(ha, hb_)));
        check("__hsub", i, a, b, o[10], hb(__hsub(ha, hb_)));
        check("__hmul", i, a, b, o[11], hb(__hmul(ha, hb_)));
        double f16fma = fma_odd(fa, fb, fc);
        uint32_t want = std::isnan(f16fma) ? 0x7FFF : hb(__double2half(f16fma));
        check("__hfma", i, a, b, o[12], want);
        check("__hfma_relu", i, a, b, o[13], std::isnan(f16fma) ? 0x7FFF : f16fma < 0 || (f16fma == 0) ? 0 : want);
        double sat = std::isnan(f16fma) || f16fma <= 0 ? 0 : f16fma > 1 ? 1 : f16fma;  // .sat: -0 too gives +0
        check("__hfma_sat", i, a, b, o[14], hb(__double2half(sat)));
        check("__hmax_nan", i, a, b, o[15], hb(__hmax_nan(ha, hb_)));
        check("__hmin", i, a, b, o[16], hb(__hmin(ha, hb_)));
        check("__hmax", i, a, b, o[17], hb(__hmax(ha, hb_)));
        check("__hmin_nan", i, a, b, o[18], hb(__hmin_nan(ha, hb_)));
        {
            double q = (double) fa / (double) fb;  // the correctly rounded half quotient
            check("__hdiv", i, a, b, o[19], std::isnan(q) ? 0x7FFF : hb(__double2half(q)));
        }
        check("__hadd bf16", i, a, b, o[20], bb(__hadd(ba, bb_)));
        check("__hsub bf16", i, a, b, o[21], bb(__hsub(ba, bb_)));
        check("__hmul bf16", i, a, b, o[22], bb(__hmul(ba, bb_)));
        double bffma = fma_odd(ga, gb, gc);
        uint32_t wantb = std::isnan(bffma) ? 0x7FFF : bb(__double2bfloat16(bffma));
        check("__hfma bf16", i, a, b, o[23], wantb);
        check("__hfma_relu bf16", i, a, b, o[24], std::isnan(bffma) ? 0x7FFF : bffma <= 0 ? 0 : wantb);
        check("__hmax_nan bf16", i, a, b, o[25], bb(__hmax_nan(ba, bb_)));
        check("__hmin bf16", i, a, b, o[26], bb(__hmin(ba, bb_)));
        // A NaN widens to some NaN (its payload is not documented for cvt.f32.bf16).
        check("__bfloat162float", i, a, b, std::isnan(ga) && std::isnan(bitsf(o[27])) ? 0 : o[27], std::isnan(ga) ? 0 : fbits(ga));
        check("__float22bfloat162_rn", i, a, b, o[28], b2b(__float22bfloat162_rn(make_float2(a, b))));
        check("__floats2half2_rn", i, a, b, o[29], h2b(__floats2half2_rn(a, b)));
        {
            double lo = fma_odd(fa, fb, fc), hi = fma_odd(fb, fc, fa);
            uint32_t l = std::isnan(lo) ? 0x7FFF : hb(__double2half(lo)), h = std::isnan(hi) ? 0x7FFF : hb(__double2half(hi));
            check("__hfma2", i, a, b, o[30], l | h << 16);
            double pl = (double) ga * gc, ph = (double) gb * ga;
            uint32_t bl = std::isnan(pl) ? 0x7FFF : bb(__double2bfloat16(pl)), bh = std::isnan(ph) ? 0x7FFF : bb(__double2bfloat16(ph));
            check("__hmul2 bf16", i, a, b, o[31], bl | bh << 16);
        }
        check("__nv_cvt_float2_to_fp8x2 e4m3", i, a, b, o[32], __nv_cvt_float2_to_fp8x2(make_float2(a, b), __NV_SATFINITE, __NV_E4M3));
        check("__nv_cvt_float2_to_fp8x2 e5m2", i, a, b, o[33], __nv_cvt_float2_to_fp8x2(make_float2(a, b), __NV_SATFINITE, __NV_E5M2));
        {
            __half2_raw r = __nv_cvt_fp8x2_to_halfraw2((__nv_fp8x2_storage_t) (i * 0x0101 * 37 ^ fbits(a)), __NV_E4M3);
            check("__nv_cvt_fp8x2_to_halfraw2 e4m3", i, a, b, o[34], r.x | (uint32_t) r.y << 16);
            r = __nv_cvt_fp8x2_to_halfraw2((__nv_fp8x2_storage_t) (i * 0x0101 * 37 ^ fbits(a)), __NV_E5M2);
            check("__nv_cvt_fp8x2_to_halfraw2 e5m2", i, a, b, o[35], r.x | (uint32_t) r.y << 16);
        }
        check("__nv_cvt_halfraw2_to_fp8x2 e4m3", i, a, b, o[36], __nv_cvt_halfraw2_to_fp8x2(__halves2half2(ha, hb_), __NV_SATFINITE, __NV_E4M3));
        check("__nv_cvt_bfloat16raw2_to_fp8x2 e5m2", i, a, b, o[37], __nv_cvt_bfloat16raw2_to_fp8x2(__halves2bfloat162(ba, bb_), __NV_SATFINITE, __NV_E5M2));
        check("__float2int_rn", i, a, b, o[38], (uint32_t) f2i(a, 0, INT32_MIN, INT32_MAX));
        check("__float2int_rz", i, a, b, o[39], (uint32_t) f2i(a, 1, INT32_MIN, INT32_MAX));
        check("__float2int_rd", i, a, b, o[40], (uint32_t) f2i(a, 2, INT32_MIN, INT32_MAX));
        check("__float2int_ru", i, a, b, o[41], (uint32_t) f2i(a, 3, INT32_MIN, INT32_MAX));
        check("__float2uint_rn", i, a, b, o[42], (uint32_t) f2u(a, 0, UINT32_MAX));
        check("__float2uint_rd", i, a, b, o[43], (uint32_t) f2u(a, 2, UINT32_MAX));
        check("__fdiv_rz", i, a, b, o[44], canon(fl_div(a, b, FE_TOWARDZERO)));
        check("__fdiv_ru", i, a, b, o[45], canon(fl_div(a, b, FE_UPWARD)));
        check("__fmul_rd", i, a, b, o[46], canon(fl_mul(a, b, FE_DOWNWARD)));
        check("__fadd_ru", i, a, b, o[47], canon(fl_add(a, b, FE_UPWARD)));
        check("__fsqrt_ru", i, a, b, o[48], canon(fl_sqrt(a, FE_UPWARD)));
        check("__fsqrt_rd", i, a, b, o[49], canon(fl_sqrt(a, FE_DOWNWARD)));
        check("__frcp_rn", i, a, b, o[50], canon(fl_div(1.0f, a, FE_TONEAREST)));
        check("__frcp_rz", i, a, b, o[51], canon(fl_div(1.0f, a, FE_TOWARDZERO)));
        check("__fmaf_rz", i, a, b, o[52], canon(fl_fma(a, b, c, FE_TOWARDZERO)));
        check("__fmaf_ru", i, a, b, o[53], canon(fl_fma(a, b, c, FE_UPWARD)));
        check("__fdiv_rn", i, a, b, o[54], canon(fl_div(a, b, FE_TONEAREST)));
        check("__int2float_rz", i, a, b, o[55], fbits(fl_i2f((int) fbits(b), FE_TOWARDZERO)));
        check("__uint2float_ru", i, a, b, o[56], fbits(fl_u2f(fbits(c), FE_UPWARD)));
        check("__ll2float_rd", i, a, b, o[57], fbits(fl_i2f((long long) fbits(a) << 20 ^ fbits(b), FE_DOWNWARD)));
        check("__double2float_rz", i, a, b, o[58], canon(fl_d2f((double) a * (double) b, FE_TOWARDZERO)));
        check("__double2float_ru", i, a, b, o[59], canon(fl_d2f((double) a / 3.0, FE_UPWARD)));
        {
            double p = (double) a * (double) b;
            check("__double2half", i, a, b, o[60], std::isnan(p) ? 0x7FFF : hb(__double2half(p)));
        }
        // neg.f16/abs.f16 flip/clear the sign bit; the host's versions go through float and give a
        // canonical NaN, so a NaN is compared as NaN.
        check("__hneg(__habs)", i, a, b, isnanh(o[61]) && isnanh(hb(ha)) ? 0 : o[61], isnanh(hb(ha)) ? 0 : hb(__hneg(__habs(ha))));
        check("__ushort2half_rn", i, a, b, o[62], hb(__float2half_rn((float) (unsigned short) fbits(a))));
        {
            // An int to half, rounded down: through double (exact), then the host's round-down.
            int v = (int) fbits(a) >> 8;
            check("__int2half_rd", i, a, b, o[63], hb(__float2half_rd(fl_i2f(v, FE_DOWNWARD))));
        }
        // f64
        double da = (double) a * 1.0000001, db = (double) b - 0.25, dc = (double) c;
        const uint64_t *p = &out64[(size_t) i * 8];
        auto d64 = [](double r) { uint64_t u; if (std::isnan(r)) return (uint64_t) 0x7FFFFFFFFFFFFFFFull; memcpy(&u, &r, 8); return u; };
        check("fma f64", i, a, b, p[0], d64(fma(da, db, dc)));
        check("div f64", i, a, b, p[1], d64(da / db));
        check("sqrt f64", i, a, b, p[2], d64(sqrt(da)));
        check("__dadd_rd", i, a, b, p[3], d64(dl_add(da, db, FE_DOWNWARD)));
        check("__double2ll_rn", i, a, b, p[4], (uint64_t) f2i(da, 0, INT64_MIN, INT64_MAX));
        check("__double2ull_rz", i, a, b, p[5], f2u(da, 1, ~0ull));
        check("__float2ll_ru", i, a, b, p[6], (uint64_t) f2i(a, 3, INT64_MIN, INT64_MAX));
        check("__float2ull_rd", i, a, b, p[7], f2u(a, 2, ~0ull));
        // Approximate functions, against the CUDA Programming Guide's bounds (plus the f32
        // rounding of the argument where the intrinsic scales it first).
        float got;
        const double ulp1 = ldexp(1.0, -23);
        if (fabsf(a) < 80) approx("__expf", i, a, bitsf(o[64]), exp((double) a), 0, (2 + floor(fabs(1.16 * a))) * ulp1 * 2);
        if (a > 0 && std::isfinite(a) && a >= 1.1754944e-38f) {
            if (a >= 0.5f && a <= 2) approx("__logf", i, a, bitsf(o[65]), log((double) a), ldexp(1.0, -21), 0);
            else approx("__logf", i, a, bitsf(o[65]), log((double) a), 0, 4 * ulp1);
            if (a >= 0.5f && a <= 2) approx("__log2f", i, a, bitsf(o[71]), log2((double) a), ldexp(1.0, -22), 0);
            else approx("__log2f", i, a, bitsf(o[71]), log2((double) a), 0, 2 * ulp1);
        }
        if (fabsf(a) <= 3.14159265f) {
            approx("__sinf", i, a, bitsf(o[66]), sin((double) a), ldexp(1.0, -21.41), 0);
            approx("__cosf", i, a, bitsf(o[67]), cos((double) a), ldexp(1.0, -21.41), 0);
        }
        if (std::isfinite(a) && fabsf(a) < 1e30f) approx("__tanhf", i, a, bitsf(o[68]), tanh((double) a), ldexp(1.0, -20), ldexp(1.0, -10.9));
        if (fabsf(b) > 1e-30f && fabsf(b) < 1e30f && std::isfinite(a)) approx("__fdividef", i, a, bitsf(o[69]), (float) ((double) a / b), 1e-38, 2 * ulp1 + 1e-9);
        if (fabsf(a) < 30) approx("__exp10f", i, a, bitsf(o[70]), pow(10.0, (double) a), 0, (2 + floor(fabs(2.95 * a))) * ulp1 * 2);
        // Half functions: the documented behaviour is "in round-to-nearest-even mode" built on f32
        // approximations: allowed one half ulp beyond the correctly rounded result.
        auto halfApprox = [&](const char *what, uint32_t got, double exact, bool bf) {
            checks++;
            float g = bf ? bf2f(got) : h2f(got);
            bool ok;
            if (std::isnan(exact)) ok = bf ? isnanb(got) : isnanh(got);
            else {
                uint32_t want = bf ? bb(__double2bfloat16(exact)) : hb(__double2half(exact));
                int d = (int) (got & 0x7FFF) - (int) (want & 0x7FFF);
                ok = (got == want) || ((got ^ want) < 0x8000 && (d == 1 || d == -1)) || (g == 0 && exact == 0);
            }
            if (!ok && ++failures <= 60) printf("OUT OF BOUND %s input %d (a=%a): device %a exact %a\n", what, i, a, g, exact);
        };
        halfApprox("hexp2", o[72], exp2((double) fa), false);
        halfApprox("hsqrt", o[73], sqrt((double) fa), false);
        if (fa != 0) halfApprox("hrsqrt", o[74], 1 / sqrt((double) fa), false);
        if (fa > 0) halfApprox("hlog2", o[75], log2((double) fa), false);
        halfApprox("hrcp", o[76], 1 / (double) fa, false);
        {
            // htanh_approx: PTX tanh.approx.f16, max absolute error 2^-10.987 (PTX ISA 9.7.4.9).
            double t = tanh((double) fa);
            got = h2f(o[77]);
            approx("htanh_approx", i, a, got, t, ldexp(1.0, -10.987), 0);
        }
        halfApprox("h2exp.lo", o[78] & 0xFFFF, exp((double) fa), false);
        halfApprox("h2exp.hi", o[78] >> 16, exp((double) fb), false);
        halfApprox("hexp2 bf16", o[79], exp2((double) ga), true);
        halfApprox("hsqrt bf16", o[80], sqrt((double) ga), true);
        halfApprox("hrcp bf16", o[81], 1 / (double) ga, true);
        halfApprox("hexp", o[82], exp((double) fa), false);
        if (fa > 0) halfApprox("hlog", o[83], log((double) fa), false);
        {
            // __frsqrt_rn: 1/sqrt(x) rounded to nearest (long double keeps the tie decision exact here).
            long double r = 1.0L / sqrtl((long double) a);
            float w = (float) r;
            if (a < 0) check("__frsqrt_rn", i, a, b, o[84], 0x7FFFFFFF);
            else check("__frsqrt_rn", i, a, b, canon(bitsf(o[84])), canon(w));
        }
        {
            auto hr = [&](double v) { return std::isnan(v) ? 0x7FFFu : hb(__double2half(v)); };
            auto nanAsNan = [&](uint32_t got, uint32_t want) { return isnanh(got) && isnanh(want) ? want : got; };
            check("hceil", i, a, b, nanAsNan(o[86], hr(ceil(fa))), hr(ceil(fa)));
            check("hfloor", i, a, b, nanAsNan(o[87], hr(floor(fa))), hr(floor(fa)));
            uint32_t tb = std::isnan(ga) ? 0x7FFF : bb(__double2bfloat16(trunc((double) ga)));
            check("htrunc bf16", i, a, b, isnanb(o[88]) && isnanb(tb) ? tb : o[88], tb);
            check("hrint", i, a, b, nanAsNan(o[89], hr(nearbyint(fa))), hr(nearbyint(fa)));
            check("__half2int_rn", i, a, b, o[90], (uint32_t) f2i(fa, 0, INT32_MIN, INT32_MAX));
            check("__half2short_rz", i, a, b, o[91], (uint32_t) (int) f2i(fa, 1, INT16_MIN, INT16_MAX));
            double s2 = (double) fa + fb, p2 = (double) fa * fb;
            check("__hadd_sat", i, a, b, o[92], hb(__double2half(std::isnan(s2) || s2 <= 0 ? 0 : s2 > 1 ? 1 : s2)));
            check("__hmul_sat", i, a, b, o[93], hb(__double2half(std::isnan(p2) || p2 <= 0 ? 0 : p2 > 1 ? 1 : p2)));
            check("__nv_cvt_float_to_fp8 nosat", i, a, b, o[94], __nv_cvt_float_to_fp8(a, __NV_NOSAT, __NV_E4M3));
            uint32_t mx = h2b(__hmax2_nan(__halves2half2(ha, hb_), __halves2half2(hb_, hc)));
            check("__hmax2_nan", i, a, b, o[95], mx);
            check("__bfloat162int_rz", i, a, b, o[96], (uint32_t) f2i(ga, 1, INT32_MIN, INT32_MAX));
            double t3 = (double) a * 3.0;
            check("__double2bfloat16", i, a, b, o[97], std::isnan(t3) ? 0x7FFF : bb(__double2bfloat16(t3)));
        }
        {
            uint32_t x = fbits(a), y = fbits(b), z = fbits(c);
            uint32_t s4 = z, u4 = z, s2 = z;
            for (int k = 0; k < 4; k++) {
                s4 += (uint32_t) ((int) (int8_t) (x >> (8 * k)) * (int) (int8_t) (y >> (8 * k)));
                u4 += ((x >> (8 * k)) & 0xFF) * ((y >> (8 * k)) & 0xFF);
            }
            for (int k = 0; k < 2; k++) s2 += (uint32_t) ((int) (int16_t) (x >> (16 * k)) * (int) (int8_t) (y >> (8 * (2 + k))));
            check("__dp4a signed", i, a, b, o[98], s4);
            check("__dp4a unsigned", i, a, b, o[99], u4);
            check("__dp2a_hi", i, a, b, o[100], s2);
            long long dxy = (long long) (int) x - (long long) (int) y;
            check("__sad", i, a, b, o[101], z + (uint32_t) (dxy < 0 ? -dxy : dxy));
        }
        if (fabsf(a) < 120 || !std::isfinite(a)) {
            double e2 = exp2((double) a);
            if (fabsf(a) < 1.1754944e-38f) e2 = 1;  // ex2.approx.ftz flushes a subnormal input
            if (e2 < 1.1754944e-38) e2 = 0;         // and a subnormal result
            approx("exp2f", i, a, bitsf(o[85]), e2, 0, 2 * ulp1);
        }
    }
    {
        __half *h; __half2 *h2; __nv_bfloat16 *b; __nv_bfloat162 *b2; uint32_t *so;
        cudaMalloc(&h, 2); cudaMalloc(&h2, 4); cudaMalloc(&b, 2); cudaMalloc(&b2, 4); cudaMalloc(&so, 8);
        cudaMemset(h, 0, 2); cudaMemset(h2, 0, 4); cudaMemset(b, 0, 2); cudaMemset(b2, 0, 4);
        half_atomics<<<1, 256>>>(h, h2, b, b2, so);
        cudaError_t e2 = cudaDeviceSynchronize();
        if (e2 != cudaSuccess) { printf("FAIL half_intrinsics: atomics launch %s\n", cudaGetErrorName(e2)); return 1; }
        uint16_t rh, rb; uint32_t rh2, rb2, rs[2];
        cudaMemcpy(&rh, h, 2, cudaMemcpyDeviceToHost); cudaMemcpy(&rh2, h2, 4, cudaMemcpyDeviceToHost);
        cudaMemcpy(&rb, b, 2, cudaMemcpyDeviceToHost); cudaMemcpy(&rb2, b2, 4, cudaMemcpyDeviceToHost);
        cudaMemcpy(rs, so, 8, cudaMemcpyDeviceToHost);
        check("atomicAdd __half", 0, 0, 0, rh, hb(__float2half(64.0f)));
        check("atomicAdd __half2", 0, 0, 0, rh2, h2b(__floats2half2_rn(64.0f, -64.0f)));
        check("atomicAdd bf16", 0, 0, 0, rb, bb(__float2bfloat16(128.0f)));
        check("atomicAdd bf16x2", 0, 0, 0, rb2, b2b(__floats2bfloat162_rn(128.0f, -128.0f)));
        check("atomicAdd shared __half", 0, 0, 0, rs[0], hb(__float2half(64.0f)));
        check("atomicAdd shared bf16x2", 0, 0, 0, rs[1], b2b(__floats2bfloat162_rn(128.0f, 128.0f)));
    }
    printf("%d inputs, %d checks, %d mismatches\n", n, checks, failures);
    if (failures) { printf("FAIL half_intrinsics\n"); return 1; }
    printf("PASS half_intrinsics\n");
    return 0;
}
