// What BarrierScope still does not emulate of textures (docs/runtime.md, "Arrays, textures and
// surfaces"): each host call that needs it is named and returns cudaErrorNotSupported (a sparse
// array, a resource view); a kernel using a texture instruction the engine does not run (the
// residency predicate of a sparse texture fetch, tex2D's isResident) is refused at its launch with cudaErrorInvalidDeviceFunction,
// naming the PTX instruction; and the module's other kernels still run, even when that kernel
// comes first in the module.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void resident(cudaTextureObject_t t, float4 *out) {
    bool isResident = false;
    out[threadIdx.x] = tex2D<float4>(t, 0.5f, 0.5f, &isResident);
    if (!isResident) out[threadIdx.x].x = -1.0f;
}
__global__ void plain(float *out) { out[threadIdx.x] = 2.0f * threadIdx.x; }

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
    printf("FAIL %s: %s\n", #x, cudaGetErrorString(e)); return 1; } } while (0)
#define EXPECT(c) do { if (!(c)) { printf("FAIL line %d: %s\n", __LINE__, #c); return 1; } } while (0)

int main() {
    cudaChannelFormatDesc d = cudaCreateChannelDesc<float>();
    EXPECT(d.x == 32 && d.y == 0 && d.z == 0 && d.w == 0 && d.f == cudaChannelFormatKindFloat);
    cudaArray_t arr = nullptr;
    EXPECT(cudaMalloc3DArray(&arr, &d, make_cudaExtent(8, 8, 0), cudaArraySparse) == cudaErrorNotSupported);
    cudaGetLastError();
    CHECK(cudaMallocArray(&arr, &d, 8, 8));
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = arr;
    cudaTextureDesc td = {};
    cudaResourceViewDesc view = {};
    cudaTextureObject_t t = 0;
    EXPECT(cudaCreateTextureObject(&t, &rd, &td, &view) == cudaErrorNotSupported);
    cudaGetLastError();
    CHECK(cudaCreateTextureObject(&t, &rd, &td, nullptr));
    float4 *out4;
    CHECK(cudaMalloc(&out4, 32 * sizeof(float4)));
    resident<<<1, 32>>>(t, out4);
    EXPECT(cudaGetLastError() == cudaErrorInvalidDeviceFunction);
    // Not sticky: the device goes on.
    float *out;
    CHECK(cudaMalloc(&out, 32 * sizeof(float)));
    plain<<<1, 32>>>(out);
    CHECK(cudaGetLastError());
    float host[32];
    CHECK(cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 32; i++) EXPECT(host[i] == 2.0f * i);
    CHECK(cudaDestroyTextureObject(t));
    CHECK(cudaFreeArray(arr));
    printf("PASS texture_refusals\n");
    return 0;
}
