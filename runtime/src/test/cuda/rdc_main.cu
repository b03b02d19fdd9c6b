// Relocatable device code, the kernel's half: built with rdc_lib.cu by
// nvcc -arch=sm_90a -rdc=true -cudart shared rdc_main.cu rdc_lib.cu (docs/runtime.md,
// "Relocatable device code"). The kernel calls a device function and reads and updates
// __device__ variables that rdc_lib.cu defines; the host checks every element against its own
// reference and the variables it reads back by symbol. Exits 0 when all is right.
#include <cstdio>
#include <cuda_runtime.h>

extern __device__ int rdc_scale;        // defined in rdc_lib.cu
extern __device__ int rdc_calls;        // defined in rdc_lib.cu, counted there
extern __device__ float rdc_bias[4];    // defined in rdc_lib.cu
__device__ float rdc_mix(float x, int i);  // defined in rdc_lib.cu
__device__ float rdc_stage(float *tile);   // defined in rdc_lib.cu: reads the block's dynamic shared memory

// Same name, no linkage, in both files, not inlined: each object has its own .func (cicc gives
// each a name of its own file under -rdc) and each file calls its own.
static __device__ __noinline__ float local_offset(float x) { return 0.5f + x * 0.0f; }

extern __shared__ float tile[];

__global__ void rdc_kernel(const float *in, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    tile[threadIdx.x] = i < n ? in[i] : 0.0f;
    __syncthreads();
    if (i < n) out[i] = rdc_mix(in[i], i) * rdc_scale + rdc_stage(tile) + local_offset(in[i]);
    if (i == 0) printf("rdc_kernel: scale %d\n", rdc_scale);
}

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
    printf("FAIL %s: %s\n", #x, cudaGetErrorString(e)); return 1; } } while (0)

int main() {
    const int n = 100, block = 32, blocks = (n + block - 1) / block;
    float hin[n], hout[n];
    for (int i = 0; i < n; i++) hin[i] = 0.25f * i - 3.0f;
    float *in, *out;
    CHECK(cudaMalloc(&in, n * sizeof(float)));
    CHECK(cudaMalloc(&out, n * sizeof(float)));
    CHECK(cudaMemcpy(in, hin, n * sizeof(float), cudaMemcpyHostToDevice));
    int scale = 3;
    CHECK(cudaMemcpyToSymbol(rdc_scale, &scale, sizeof scale));
    rdc_kernel<<<blocks, block, block * sizeof(float)>>>(in, out, n);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(hout, out, n * sizeof(float), cudaMemcpyDeviceToHost));
    const float bias[4] = {1.0f, -2.0f, 0.125f, 8.0f};  // rdc_lib.cu's initial values
    int bad = 0;
    for (int i = 0; i < n; i++) {
        int b0 = (i / block) * block;  // the block's first element: rdc_stage reads tile[0] + the last
        int last = b0 + block - 1 < n ? b0 + block - 1 : -1;
        float stage = hin[b0] + (last >= 0 ? hin[last] : 0.0f) + 0.75f;
        float want = (hin[i] * 2.0f + bias[i % 4]) * scale + stage + 0.5f;
        if (hout[i] != want) {
            if (bad++ < 5) printf("FAIL out[%d] = %g, want %g\n", i, hout[i], want);
        }
    }
    int calls = 0;
    CHECK(cudaMemcpyFromSymbol(&calls, rdc_calls, sizeof calls));
    if (calls != n) {
        printf("FAIL rdc_calls = %d, want %d\n", calls, n);
        bad++;
    }
    if (bad) return 1;
    printf("PASS rdc %d elements, %d calls across files\n", n, calls);
    return 0;
}
