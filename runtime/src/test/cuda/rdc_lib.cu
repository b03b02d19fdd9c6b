// Relocatable device code, the library's half: device functions and __device__ variables
// rdc_main.cu's kernel uses (see there).
#include <cstdio>

__device__ int rdc_scale = 1;
__device__ int rdc_calls;
__device__ float rdc_bias[4] = {1.0f, -2.0f, 0.125f, 8.0f};

// Same name, no linkage, in both files (not inlined): this one is 0.25, rdc_main.cu's 0.5.
static __device__ __noinline__ float local_offset(float x) { return 0.25f + x * 0.0f; }

extern __shared__ float tile[];

__device__ float rdc_mix(float x, int i) {
    atomicAdd(&rdc_calls, 1);
    if (i == 7) printf("rdc_mix: element %d\n", i);
    return x * 2.0f + rdc_bias[i % 4];
}

__device__ float rdc_stage(float *t) {
    return t[0] + tile[blockDim.x - 1] + 3.0f * local_offset(t[0]);
}
