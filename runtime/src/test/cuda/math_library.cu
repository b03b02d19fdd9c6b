// CUDA's math library (not the intrinsics): expf, logf, sinf (its Payne-Hanek reduction of large
// arguments uses mad.lo.cc/madc carry chains), tanhf, erff, powf, fmodf, frexpf, ... and their
// double versions, plus cuda_fp8.h class conversions; each result within 4 ulp of the host's libm
// (CUDA documents at most 4 ulp for these; sinpif exactly reduced), NaN for NaN.
#include <cstdio>
#include <cmath>
#include <cstring>
#include <cuda_fp8.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#define NF 24
__global__ void mathlib(const float *x, float *o, double *od, unsigned *ou) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float a = x[i];
    float *p = o + i * NF;
    p[0] = expf(a); p[1] = logf(fabsf(a)); p[2] = sinf(a); p[3] = cosf(a); p[4] = tanhf(a); p[5] = erff(a);
    p[6] = powf(fabsf(a), 0.37f); p[7] = rsqrtf(fabsf(a)); p[8] = sqrtf(fabsf(a)); p[9] = fmodf(a, 1.7f);
    int e; p[10] = frexpf(a, &e); p[11] = ldexpf(a, 5); p[12] = roundf(a); p[13] = (float) lrintf(a);
    p[14] = exp2f(a); p[15] = log2f(fabsf(a)); p[16] = atan2f(a, 0.7f); p[17] = cbrtf(a); p[18] = log1pf(fabsf(a));
    p[19] = expm1f(a); p[20] = asinf(fminf(fmaxf(a, -1.f), 1.f)); p[21] = sinpif(a); p[22] = hypotf(a, 2.5f); p[23] = erfcf(a);
    double d = (double) a * 1.0001;
    double *q = od + i * 8;
    q[0] = exp(d); q[1] = log(fabs(d)); q[2] = sin(d); q[3] = tanh(d); q[4] = pow(fabs(d), 0.37); q[5] = rsqrt(fabs(d)); q[6] = cbrt(d); q[7] = erf(d);
    unsigned *u = ou + i * 8;
    __nv_fp8x4_e4m3 f4(make_float4(a, -a, a * 0.5f, a * 3.f)); memcpy(&u[0], &f4, 4);
    __nv_fp8_e5m2 f5(__float2bfloat16(a)); u[1] = f5.__x;
    float2 ff = (float2) __nv_fp8x2_e4m3(make_float2(a, a * 2)); u[2] = __float_as_uint(ff.x + ff.y);
    __half hh = (__half) __nv_fp8_e4m3(a); u[3] = __half_as_ushort(hh);
    __nv_bfloat16 bb = (__nv_bfloat16) __nv_fp8_e5m2(a); u[4] = __bfloat16_as_ushort(bb);
    u[5] = __nv_cvt_bfloat16raw_to_fp8(__float2bfloat16(a), __NV_SATFINITE, __NV_E4M3);
    __half2 h2 = __float22half2_rn(make_float2(a, -a)); memcpy(&u[6], &h2, 4);
    u[7] = __nv_cvt_fp8_to_halfraw((__nv_fp8_storage_t) (i & 0xff), __NV_E5M2).x;
}
int main() {
    const int N = 512;
    float hx[N]; for (int i = 0; i < N; i++) hx[i] = (i - 256) * 0.0371f + (i % 7) * 1e-3f;
    hx[0] = 0; hx[1] = -0.0f; hx[2] = INFINITY; hx[3] = NAN; hx[4] = 1e-40f; hx[5] = 80.f; hx[6] = -100.f; hx[7] = 1e30f; hx[8] = 3.0e9f; hx[9] = -12345.678f; hx[10] = 1e-20f;
    float *x, *o; double *od; unsigned *ou;
    cudaMalloc(&x, N * 4); cudaMalloc(&o, N * NF * 4); cudaMalloc(&od, N * 64); cudaMalloc(&ou, N * 32);
    cudaMemcpy(x, hx, N * 4, cudaMemcpyHostToDevice);
    mathlib<<<N / 128, 128>>>(x, o, od, ou);
    cudaError_t err = cudaDeviceSynchronize();
    if (err != cudaSuccess) { printf("FAIL math_library: launch %s\n", cudaGetErrorName(err)); return 1; }
    static float ho[N * NF]; static double hd[N * 8];
    cudaMemcpy(ho, o, sizeof ho, cudaMemcpyDeviceToHost); cudaMemcpy(hd, od, sizeof hd, cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int i = 0; i < N; i++) {
        float a = hx[i];
        float ref[NF] = {expf(a), logf(fabsf(a)), sinf(a), cosf(a), tanhf(a), erff(a), powf(fabsf(a), 0.37f), 1.0f / sqrtf(fabsf(a)),
                         sqrtf(fabsf(a)), fmodf(a, 1.7f), 0, ldexpf(a, 5), roundf(a), (float) lrintf(a), exp2f(a), log2f(fabsf(a)),
                         atan2f(a, 0.7f), cbrtf(a), log1pf(fabsf(a)), expm1f(a), asinf(fminf(fmaxf(a, -1.f), 1.f)), (float) sin(M_PI * fmod((double) a, 2.0)), hypotf(a, 2.5f), erfcf(a)};
        int e; ref[10] = frexpf(a, &e);
        for (int k = 0; k < NF; k++) {
            float g = ho[i * NF + k], r = ref[k];
            if (std::isnan(r) && std::isnan(g)) continue;
            if (g == r) continue;
            int gi, ri; memcpy(&gi, &g, 4); memcpy(&ri, &r, 4);
            if (std::isfinite(r) && abs(gi - ri) <= 4) continue;
            if (k == 13 && std::isnan(a)) continue;  // lrintf(NaN) is undefined in C
            if (bad++ < 20) printf("f32 fn %d a=%a got %a want %a\n", k, a, g, r);
        }
        double d = (double) a * 1.0001;
        double rd[8] = {exp(d), log(fabs(d)), sin(d), tanh(d), pow(fabs(d), 0.37), 1 / sqrt(fabs(d)), cbrt(d), erf(d)};
        for (int k = 0; k < 8; k++) {
            double g = hd[i * 8 + k], r = rd[k];
            if ((std::isnan(r) && std::isnan(g)) || g == r) continue;
            long long gi, ri; memcpy(&gi, &g, 8); memcpy(&ri, &r, 8);
            if (std::isfinite(r) && llabs(gi - ri) <= 4) continue;
            if (bad++ < 20) printf("f64 fn %d d=%a got %a want %a\n", k, d, g, r);
        }
    }
    printf("%d inputs, %d results outside 4 ulp\n", N, bad);
    if (bad) { printf("FAIL math_library\n"); return 1; }
    printf("PASS math_library\n");
    return 0;
}
