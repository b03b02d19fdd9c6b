// Corpus: float and mixed-width integer math as library code emits it.
//  - fp32: fma, IEEE division and sqrt (div.rn / sqrt.rn), fast reciprocal sqrt,
//    fminf/fmaxf, float <-> int conversions with rounding modes, a float -> double trip;
//  - integers: 16-bit and 8-bit loads and stores, sign/zero extension,
//    64-bit multiply/shift/xor (an FNV-1a style hash), 64-bit division and remainder
//    (div.s64/div.u64 with nvcc's div.u32 fast path; remainders become mul+sub),
//    mul.hi / mul.wide, popc / clz / brev on 32 and 64 bits.
#include <cstdint>

extern "C" __global__ void numeric_mix(const float *x, const short *s16, const uint8_t *u8,
                                       const long long *s64, float *fout, double *dout,
                                       int *iout, unsigned long long *hash_out,
                                       short *s16out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;

    // ---- float ----
    float a = x[i];
    float b = (float)s16[i];                       // ld.global.u16 then cvt.rn.f32.s16
    float c = fmaf(a, b, 1.5f);                    // fma.rn.f32
    float q = c / (b + 3.0f);                      // div.rn.f32
    float r = sqrtf(fabsf(q));                     // sqrt.rn.f32
    float rs = rsqrtf(fabsf(a) + 1.0f);            // rsqrt.approx.f32
    float m = fminf(fmaxf(r, 0.25f), 64.0f);       // max.f32 / min.f32
    fout[i] = m + rs;
    iout[i] = __float2int_rz(q) + (int)rintf(a) + (int)(unsigned)fabsf(c);  // cvt.rzi / cvt.rni
    dout[i] = (double)a * 0.1 + (double)s64[i];    // cvt.f64.f32, cvt.rn.f64.s64, fma.rn.f64

    // ---- integers ----
    unsigned long long h = 1469598103934665603ull;  // FNV-1a offset basis
    uint8_t byte = u8[i];                           // ld.global.u8
    h ^= byte;
    h *= 1099511628211ull;                          // mul.lo.s64
    h ^= (unsigned long long)(unsigned short)s16[i];
    h *= 1099511628211ull;
    long long v = s64[i];
    long long d = i + 3;                            // run-time divisor: real div/rem
    h += (unsigned long long)(v / d) ^ ((unsigned long long)(v % d) << 40);   // div.s64
    h += (h / (unsigned long long)(byte + 1)) % 1000003ull;                   // div.u64
    h ^= __umul64hi(h, 0x9E3779B97F4A7C15ull);     // mul.hi.u64
    h += __popcll(h) + __clzll(h | 1) + __brev((unsigned)h);   // popc.b64, clz.b64, brev.b32
    h += (unsigned long long)__umulhi((unsigned)i, 2654435761u); // mul.hi.u32
    hash_out[i] = h >> 3;                           // shr.u64

    s16out[i] = (short)((int)s16[i] * 3 - (int)byte);   // st.global.u16
}
