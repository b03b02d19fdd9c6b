// Managed memory: cudaMallocManaged pointers written by the host, read and written by kernels and
// read back by the host at the same address, with copies, memsets, prefetch and advice around them.
#include <cstdio>
#include <cuda_runtime.h>

struct Node { int value; Node *next; };

__global__ void inc(int *v, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) v[i] += i;
}

// Walks a list the host built in managed memory: pointers stored in it are the same on both sides.
__global__ void sum_list(const Node *head, int *out) {
    int s = 0;
    for (const Node *p = head; p != nullptr; p = p->next) s += p->value;
    *out = s;
}

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
    printf("FAIL %s: %s\n", #x, cudaGetErrorString(e)); return 1; } } while (0)
#define EXPECT(c) do { if (!(c)) { printf("FAIL line %d: %s\n", __LINE__, #c); return 1; } } while (0)

int main() {
    const int n = 100;
    int *v;
    size_t free0, free1, total;
    CHECK(cudaMemGetInfo(&free0, &total));
    CHECK(cudaMallocManaged((void **) &v, n * sizeof(int)));
    CHECK(cudaMemGetInfo(&free1, &total));
    EXPECT(free1 == free0 - n * sizeof(int));
    for (int i = 0; i < n; i++) v[i] = 1000;
    cudaMemLocation dev = {cudaMemLocationTypeDevice, 0};
    CHECK(cudaMemAdvise(v, n * sizeof(int), cudaMemAdviseSetPreferredLocation, dev));
    CHECK(cudaMemPrefetchAsync(v, n * sizeof(int), dev, 0, 0));
    inc<<<4, 32>>>(v, n);
    CHECK(cudaDeviceSynchronize());
    for (int i = 0; i < n; i++) EXPECT(v[i] == 1000 + i);
    inc<<<4, 32>>>(v, n);
    CHECK(cudaDeviceSynchronize());
    for (int i = 0; i < n; i++) EXPECT(v[i] == 1000 + 2 * i);

    // Copies and memsets treat the managed pointer as the one memory it is, whatever the kind.
    int *d, host[n];
    CHECK(cudaMalloc(&d, n * sizeof(int)));
    CHECK(cudaMemcpy(d, v, n * sizeof(int), cudaMemcpyDeviceToDevice));
    CHECK(cudaMemset(v, 0, n * sizeof(int)));
    EXPECT(v[0] == 0 && v[n - 1] == 0);
    CHECK(cudaMemcpy(v, d, n * sizeof(int), cudaMemcpyDefault));
    for (int i = 0; i < n; i++) EXPECT(v[i] == 1000 + 2 * i);
    CHECK(cudaMemcpy(host, v, n * sizeof(int), cudaMemcpyDeviceToHost));
    EXPECT(host[7] == 1014);

    cudaPointerAttributes pa;
    CHECK(cudaPointerGetAttributes(&pa, v + 3));
    EXPECT(pa.type == cudaMemoryTypeManaged && pa.devicePointer == v + 3 && pa.hostPointer == v + 3);

    Node *nodes;
    int *sum;
    CHECK(cudaMallocManaged((void **) &nodes, 3 * sizeof(Node), cudaMemAttachGlobal));
    CHECK(cudaMallocManaged((void **) &sum, sizeof(int), cudaMemAttachHost));
    for (int i = 0; i < 3; i++) nodes[i] = {10 * (i + 1), i < 2 ? &nodes[i + 1] : nullptr};
    sum_list<<<1, 1>>>(nodes, sum);
    CHECK(cudaDeviceSynchronize());
    EXPECT(*sum == 60);

    int *bad;
    EXPECT(cudaMallocManaged((void **) &bad, 0) == cudaErrorInvalidValue);
    EXPECT(cudaMallocManaged((void **) &bad, 16, 7) == cudaErrorInvalidValue);
    cudaGetLastError();

    CHECK(cudaFree(v));
    CHECK(cudaFree(nodes));
    CHECK(cudaFree(sum));
    CHECK(cudaFree(d));
    printf("PASS managed\n");
    return 0;
}
