// Corpus: a real call. __noinline__ keeps `clamp_scale` a separate .func, called with
// the ABI: `.param` declarations in a `{ }` scope, st.param / call.uni / ld.param.
__device__ __noinline__ int clamp_scale(int v, int lo, int hi, int scale)
{
    if (v < lo) v = lo;
    if (v > hi) v = hi;
    return v * scale;
}

// A float-returning helper with a pointer parameter, also kept out of line.
__device__ __noinline__ float weighted_sum(const float *w, const int *v, int k)
{
    float acc = 0.0f;
    for (int j = 0; j < k; ++j)
        acc += w[j] * (float)v[j];
    return acc;
}

extern "C" __global__ void apply_clamp(const int *in, int *out, const float *w, float *wsum,
                                       int n, int lo, int hi)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    out[i] = clamp_scale(in[i], lo, hi, 3) + clamp_scale(-in[i], lo, hi, 1);
    if (i % 4 == 0 && i + 4 <= n)
        wsum[i / 4] = weighted_sum(w, in + i, 4);
}
