// tld4 on a cubemap (PTX ISA 9.7.10.4 lists .cube and .acube among tld4's geometries; CUDA C++ has
// no cubemap gather function, so inline PTX, which ptxas accepts): the engine runs the instruction,
// but CUDA allows gathers on 2D arrays only ("Texture gather can only be performed on 2D CUDA
// arrays", cuArray3DCreate), so no cubemap object allows one and the launch is diagnosed
// (texture-misuse, cudaErrorLaunchFailure) rather than given a footprint the GPU never fetches
// (docs/semantics.md section 16).
#include <cstdio>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
    printf("FAIL %s: %s\n", #x, cudaGetErrorString(e)); return 1; } } while (0)

__global__ void gather(cudaTextureObject_t t, float4 *out) {
    float4 r;
    asm volatile("tld4.r.cube.v4.f32.f32 {%0, %1, %2, %3}, [%4, {%5, %6, %7, %7}];"
                 : "=f"(r.x), "=f"(r.y), "=f"(r.z), "=f"(r.w) : "l"(t), "f"(0.1f), "f"(0.2f), "f"(3.0f));
    out[threadIdx.x] = r;
}

int main() {
    cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
    cudaArray_t cube;
    CHECK(cudaMalloc3DArray(&cube, &fd, make_cudaExtent(2, 2, 6), cudaArrayCubemap));
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = cube;
    cudaTextureDesc td = {};
    td.normalizedCoords = 1;
    cudaTextureObject_t t;
    CHECK(cudaCreateTextureObject(&t, &rd, &td, nullptr));
    float4 *out;
    CHECK(cudaMalloc(&out, sizeof(float4)));
    gather<<<1, 1>>>(t, out);
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaErrorLaunchFailure) { printf("FAIL the cube gather returned %s\n", cudaGetErrorName(e)); return 1; }
    printf("PASS cube_gather\n");
    return 0;
}
