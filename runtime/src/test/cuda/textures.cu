// CUDA arrays, textures and surfaces are not emulated. What a program that uses them meets
// (docs/runtime.md, "Not yet"): each host call that needs one is named and returns
// cudaErrorNotSupported; a kernel that fetches a texture or writes a surface is refused at its
// launch with cudaErrorInvalidDeviceFunction, naming the PTX instruction; and the module's other
// kernels still run, even when the texture kernel comes first in the module.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void fetch(cudaTextureObject_t t, float *out) { out[threadIdx.x] = tex1Dfetch<float>(t, threadIdx.x); }
__global__ void paint(cudaSurfaceObject_t s) { surf2Dwrite(1.0f, s, threadIdx.x * 4, 0); }
__global__ void plain(float *out) { out[threadIdx.x] = 2.0f * threadIdx.x; }

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
    printf("FAIL %s: %s\n", #x, cudaGetErrorString(e)); return 1; } } while (0)
#define EXPECT(c) do { if (!(c)) { printf("FAIL line %d: %s\n", __LINE__, #c); return 1; } } while (0)

int main() {
    cudaChannelFormatDesc d = cudaCreateChannelDesc<float>();
    EXPECT(d.x == 32 && d.y == 0 && d.z == 0 && d.w == 0 && d.f == cudaChannelFormatKindFloat);
    cudaChannelFormatDesc u4 = cudaCreateChannelDesc<uchar4>();
    EXPECT(u4.x == 8 && u4.w == 8 && u4.f == cudaChannelFormatKindUnsigned);
    cudaArray_t arr = nullptr;
    EXPECT(cudaMallocArray(&arr, &d, 32, 1) == cudaErrorNotSupported);
    cudaGetLastError();
    float *out;
    CHECK(cudaMalloc(&out, 32 * sizeof(float)));
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeLinear;
    rd.res.linear.devPtr = out;
    rd.res.linear.desc = d;
    rd.res.linear.sizeInBytes = 32 * sizeof(float);
    cudaTextureDesc td = {};
    cudaTextureObject_t t = 0;
    EXPECT(cudaCreateTextureObject(&t, &rd, &td, nullptr) == cudaErrorNotSupported);
    cudaGetLastError();
    fetch<<<1, 32>>>(t, out);
    EXPECT(cudaGetLastError() == cudaErrorInvalidDeviceFunction);
    paint<<<1, 32>>>(0);
    EXPECT(cudaGetLastError() == cudaErrorInvalidDeviceFunction);
    // Not sticky: the device goes on.
    plain<<<1, 32>>>(out);
    CHECK(cudaGetLastError());
    float host[32];
    CHECK(cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 32; i++) EXPECT(host[i] == 2.0f * i);
    printf("PASS textures\n");
    return 0;
}
