// f64 arithmetic with directed rounding through CUDA's intrinsics: nvcc emits
// add/sub/mul/fma/div/rcp/sqrt .rz/.rm/.rp .f64 and cvt.rz/.rm/.rp.f64.s64.
// Each thread writes 20 results (raw bits) for its x[i], y[i], z[i], k[i].
extern "C" __global__ void f64_directed(const double* x, const double* y, const double* z, const long long* k,
                             unsigned long long* out) {
    int i = threadIdx.x;
    double a = x[i], b = y[i], c = z[i];
    double r[20];
    r[0] = __dadd_rz(a, b);
    r[1] = __dadd_rd(a, b);
    r[2] = __dadd_ru(a, b);
    r[3] = __dsub_rd(a, b);
    r[4] = __dmul_rz(a, b);
    r[5] = __dmul_rd(a, b);
    r[6] = __dmul_ru(a, b);
    r[7] = __fma_rz(a, b, c);
    r[8] = __fma_rd(a, b, c);
    r[9] = __fma_ru(a, b, c);
    r[10] = __ddiv_rz(a, b);
    r[11] = __ddiv_rd(a, b);
    r[12] = __ddiv_ru(a, b);
    r[13] = __drcp_rz(a);
    r[14] = __drcp_ru(a);
    r[15] = __dsqrt_rd(fabs(a));
    r[16] = __dsqrt_ru(fabs(a));
    r[17] = __ll2double_rz(k[i]);
    r[18] = __ll2double_rd(k[i]);
    r[19] = __ll2double_ru(k[i]);
    for (int j = 0; j < 20; j++) out[20 * i + j] = __double_as_longlong(r[j]);
}
