// Registered host memory, as programs that pin a buffer they malloc'd use it: cudaHostRegister,
// then a kernel reaches the buffer through cudaHostGetDevicePointer's pointer and (unified
// addressing) at the host pointer itself; the host sees the kernel's writes after the launch and
// the kernel sees the host's writes at the next. Then the error codes the CUDA Runtime API gives
// for a range registered twice, a null pointer or size 0, and unregistering what is not registered;
// last, a kernel's store to memory registered read-only.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void increment(int *p, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] += 1;
}

__global__ void sum(const int *p, int n, int *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(out, p[i]);
}

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
    printf("FAIL %s: %s\n", #x, cudaGetErrorString(e)); return 1; } } while (0)
#define EXPECT(c) do { if (!(c)) { printf("FAIL line %d: %s\n", __LINE__, #c); return 1; } } while (0)

int main() {
    const int n = 1000;
    int *buf = (int *) malloc(n * sizeof(int));
    EXPECT(buf != nullptr);
    for (int i = 0; i < n; i++) buf[i] = i;
    CHECK(cudaHostRegister(buf, n * sizeof(int), cudaHostRegisterMapped | cudaHostRegisterPortable));

    int *dbuf = nullptr;
    CHECK(cudaHostGetDevicePointer((void **) &dbuf, buf, 0));
    EXPECT(dbuf != nullptr);
    increment<<<(n + 255) / 256, 256>>>(dbuf, n);       // through the device pointer
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    for (int i = 0; i < n; i++) EXPECT(buf[i] == i + 1);
    buf[0] = 100;                                         // the host writes between launches
    increment<<<(n + 255) / 256, 256>>>(buf, n);         // at the host pointer itself
    CHECK(cudaDeviceSynchronize());
    EXPECT(buf[0] == 101);
    for (int i = 1; i < n; i++) EXPECT(buf[i] == i + 2);

    int *inner = nullptr;
    CHECK(cudaHostGetDevicePointer((void **) &inner, buf + 10, 0));
    EXPECT(inner == dbuf + 10);
    unsigned flags = 0;
    CHECK(cudaHostGetFlags(&flags, buf));
    EXPECT(flags == (cudaHostRegisterMapped | cudaHostRegisterPortable));
    cudaPointerAttributes attr;
    CHECK(cudaPointerGetAttributes(&attr, buf));
    EXPECT(attr.type == cudaMemoryTypeHost && attr.devicePointer == dbuf && attr.hostPointer == buf);

    // A range overlapping a registered one, or pinned memory, is already registered.
    EXPECT(cudaHostRegister(buf + 100, 16, cudaHostRegisterDefault) == cudaErrorHostMemoryAlreadyRegistered);
    int *pinned;
    CHECK(cudaMallocHost((void **) &pinned, 64));
    EXPECT(cudaHostRegister(pinned, 64, cudaHostRegisterDefault) == cudaErrorHostMemoryAlreadyRegistered);
    CHECK(cudaFreeHost(pinned));
    // A null pointer or size 0 is an invalid value; none is sticky.
    EXPECT(cudaHostRegister(nullptr, 64, cudaHostRegisterDefault) == cudaErrorInvalidValue);
    int other[16];
    EXPECT(cudaHostRegister(other, 0, cudaHostRegisterDefault) == cudaErrorInvalidValue);
    // Memory-mapped I/O of another device has no meaning here: refused by name.
    EXPECT(cudaHostRegister(other, sizeof other, cudaHostRegisterIoMemory) == cudaErrorNotSupported);
    cudaGetLastError();

    // Read-only for the device: kernels read it.
    int *ro = (int *) malloc(n * sizeof(int));
    for (int i = 0; i < n; i++) ro[i] = 2;
    CHECK(cudaHostRegister(ro, n * sizeof(int), cudaHostRegisterReadOnly));
    int *total;
    CHECK(cudaMalloc(&total, sizeof(int)));
    CHECK(cudaMemset(total, 0, sizeof(int)));
    sum<<<(n + 255) / 256, 256>>>(ro, n, total);
    CHECK(cudaDeviceSynchronize());
    int t = 0;
    CHECK(cudaMemcpy(&t, total, sizeof(int), cudaMemcpyDeviceToHost));
    EXPECT(t == 2 * n);
    CHECK(cudaHostUnregister(ro));

    // Unregistered: no device pointer, an unregistered pointer, and a second unregister fails.
    CHECK(cudaHostUnregister(buf));
    EXPECT(cudaHostGetDevicePointer((void **) &inner, buf, 0) == cudaErrorInvalidValue);
    CHECK(cudaPointerGetAttributes(&attr, buf));
    EXPECT(attr.type == cudaMemoryTypeUnregistered);
    EXPECT(cudaHostUnregister(buf) == cudaErrorHostMemoryNotRegistered);
    EXPECT(cudaHostUnregister(other) == cudaErrorHostMemoryNotRegistered);
    EXPECT(cudaHostUnregister(nullptr) == cudaErrorInvalidValue);
    EXPECT(buf[0] == 101);                                // the bytes stay the program's
    // Registered again after unregistering: reachable again.
    CHECK(cudaHostRegister(buf, n * sizeof(int), cudaHostRegisterDefault));
    increment<<<(n + 255) / 256, 256>>>(buf, n);
    CHECK(cudaDeviceSynchronize());
    EXPECT(buf[0] == 102);
    CHECK(cudaHostUnregister(buf));
    CHECK(cudaFree(total));
    free(ro);
    free(buf);

    // A kernel's store to memory registered read-only is an illegal address (sticky: done last).
    int *sealed = (int *) malloc(4 * sizeof(int));
    for (int i = 0; i < 4; i++) sealed[i] = 5;
    CHECK(cudaHostRegister(sealed, 4 * sizeof(int), cudaHostRegisterReadOnly));
    increment<<<1, 4>>>(sealed, 4);
    EXPECT(cudaDeviceSynchronize() == cudaErrorIllegalAddress);
    for (int i = 0; i < 4; i++) EXPECT(sealed[i] == 5);
    printf("PASS host_register\n");
    return 0;
}
