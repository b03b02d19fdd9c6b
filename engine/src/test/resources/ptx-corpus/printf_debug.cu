// Corpus: device-side printf. nvcc lowers printf to a call of the external `vprintf`
// (an .extern .func) with the format strings as initialised .global .b8 arrays ($str,
// $str$1, ...) and the arguments packed into a local-memory depot (__local_depot0,
// %SP/%SPL, st.local incl. .v2), floats promoted to double.
#include <cstdio>

extern "C" __global__ void debug_print(const float *x, const int *labels, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i == 0)
        printf("debug_print: n=%d grid=%u block=%u\n", n, gridDim.x, blockDim.x);
    if (i < n) {
        float v = x[i];
        const char *tag = (labels[i] & 1) ? "odd" : "even";
        if (v < 0.0f)
            printf("thread %d: x=%f (%s, label %d) is negative, |x|=%e\n", i, v, tag,
                   labels[i], fabsf(v));
    }
    __syncthreads();
    if (threadIdx.x == 0)
        printf("block %u done\n", blockIdx.x);
}
