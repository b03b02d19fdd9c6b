// A program that misuses the runtime the way buggy programs do (docs/reliability.md, the
// campaign of 2026-11-29 afternoon): copies whose kind does not match their pointers, copies
// through freed device pointers, pitched allocations past 2^64 bytes, launch shapes past CUDA's
// limits. Each call must return its error, named on stderr, and the program must go on: before,
// a wrong kind crashed it with SIGSEGV, a pitch of SIZE_MAX "succeeded" with no memory, and a grid
// of dim3(0xFFFFFFFF) was read as a negative grid.
#include <cstdint>
#include <cstdio>
#include <cuda_runtime.h>

__global__ void inc(int *p) { p[threadIdx.x] += 1; }

static int failures = 0;
static void expect(cudaError_t got, cudaError_t want, const char *what) {
    if (got != want) {
        printf("FAIL %s: %s, expected %s\n", what, cudaGetErrorName(got), cudaGetErrorName(want));
        failures++;
    }
}

int main() {
    int h[64] = {0};
    int *d = nullptr, *gone = nullptr;
    expect(cudaMalloc(&d, sizeof h), cudaSuccess, "cudaMalloc");
    expect(cudaMalloc(&gone, sizeof h), cudaSuccess, "cudaMalloc");
    expect(cudaFree(gone), cudaSuccess, "cudaFree");
    // the kind says host where the pointer is device memory: undefined in CUDA, refused here
    expect(cudaMemcpy(h, d, sizeof h, cudaMemcpyHostToDevice), cudaErrorInvalidValue, "H2D from a device pointer");
    expect(cudaMemcpy(d, h, sizeof h, cudaMemcpyDeviceToHost), cudaErrorInvalidValue, "D2H into a device pointer");
    expect(cudaMemcpy(d, d, sizeof h, cudaMemcpyHostToHost), cudaErrorInvalidValue, "H2H of device pointers");
    // a freed device pointer on the host side
    expect(cudaMemcpy(d, gone, sizeof h, cudaMemcpyHostToDevice), cudaErrorInvalidValue, "H2D from a freed pointer");
    expect(cudaMemcpy(gone, h, sizeof h, cudaMemcpyDeviceToHost), cudaErrorInvalidValue, "D2H into a freed pointer");
    // pitched allocations whose size passes 2^64: a width of SIZE_MAX rounded its pitch up to 0 and "succeeded"
    void *pp = nullptr;
    size_t pitch = 0;
    expect(cudaMallocPitch(&pp, &pitch, SIZE_MAX, 2), cudaErrorMemoryAllocation, "cudaMallocPitch of width SIZE_MAX");
    cudaPitchedPtr p3;
    expect(cudaMalloc3D(&p3, make_cudaExtent(64, SIZE_MAX / 2, 4)), cudaErrorMemoryAllocation, "cudaMalloc3D past 2^64");
    cudaGetLastError();
    // launch shapes past CUDA's limits
    inc<<<dim3(0xFFFFFFFFu), 32>>>(d);
    expect(cudaGetLastError(), cudaErrorInvalidConfiguration, "grid x 2^32-1");
    inc<<<dim3(1, 1, 65536), 32>>>(d);
    expect(cudaGetLastError(), cudaErrorInvalidConfiguration, "grid z 65536");
    inc<<<1, dim3(0xFFFFFFFFu, 0xFFFFFFFFu, 1)>>>(d);
    expect(cudaGetLastError(), cudaErrorInvalidConfiguration, "block of (2^32-1, 2^32-1, 1)");
    // the device is still usable: nothing above was sticky
    for (int i = 0; i < 64; i++) h[i] = i;
    expect(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice), cudaSuccess, "a good copy");
    inc<<<1, 64>>>(d);
    expect(cudaGetLastError(), cudaSuccess, "a good launch");
    expect(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost), cudaSuccess, "a good copy back");
    for (int i = 0; i < 64; i++) if (h[i] != i + 1) { printf("FAIL h[%d] = %d\n", i, h[i]); failures++; break; }
    if (failures == 0) printf("PASS misuse\n");
    return failures != 0;
}
