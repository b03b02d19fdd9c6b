// Half-precision and fp8 intrinsics as real kernels use them; the test checks every output
// against its own reference. Thread i reads x[i], y[i] (f32) and writes eight 32-bit results.
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cuda_fp8.h>

extern "C" __global__ void half_math(const float* x, const float* y, unsigned* out)
{
    int i = threadIdx.x;
    float a = x[i], b = y[i];
    __half ha = __float2half_rn(a), hb = __float2half_rn(b);
    __half2 h2 = __floats2half2_rn(a, b);                      // cvt.rn.f16x2.f32 (a in the low half)
    __half2 s2 = __hfma2(h2, h2, __halves2half2(hb, ha));      // fma.rn.f16x2
    __half mx = __hmax(ha, hb);                                // max.f16
    __half e = hexp2(__hmul(ha, __float2half_rn(0.25f)));      // mul.f16, ex2.approx.f16
    __nv_bfloat16 ba = __float2bfloat16_rz(a);                 // cvt.rz.bf16.f32
    __nv_bfloat162 bs = __hadd2(__floats2bfloat162_rn(a, b), __floats2bfloat162_rn(b, a)); // add.bf16x2
    __nv_fp8x2_e4m3 f8(make_float2(a, b));                     // cvt.rn.satfinite.e4m3x2.f32
    unsigned lt = __hlt(ha, hb) ? 1u : 0u;                     // setp.lt.f16
    out[8 * i + 0] = *reinterpret_cast<unsigned*>(&h2);
    out[8 * i + 1] = *reinterpret_cast<unsigned*>(&s2);
    out[8 * i + 2] = __half_as_ushort(mx);
    out[8 * i + 3] = __half_as_ushort(e);
    out[8 * i + 4] = __bfloat16_as_ushort(ba);
    out[8 * i + 5] = *reinterpret_cast<unsigned*>(&bs);
    out[8 * i + 6] = static_cast<unsigned>(*reinterpret_cast<unsigned short*>(&f8));
    out[8 * i + 7] = lt;
}
