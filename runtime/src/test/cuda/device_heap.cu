// Device-side malloc/free and new/delete on BarrierScope's device heap (docs/runtime.md,
// "Device heap"). Without arguments every check passes and the program prints PASS; with
// "double-free" or "invalid-free" its last launch frees wrongly (a diagnostic, the launch fails).
#include <cstdio>
#include <cstdlib>
#include <cstring>

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
    printf("FAIL %s:%d %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); return 1; } } while (0)

// Each thread takes a block of its own, fills it, sums it and frees it.
__global__ void perThread(int *sums, int n) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int *p = (int *) malloc(n * sizeof(int));
    if (p == nullptr) { sums[t] = -1; return; }
    if (((unsigned long long) p & 15) != 0) { sums[t] = -2; return; }
    for (int i = 0; i < n; i++) p[i] = t + i;
    int s = 0;
    for (int i = 0; i < n; i++) s += p[i];
    sums[t] = s;
    free(p);
}

struct Node { int value; Node *next; };

// A list built with new in one launch, read and deleted in the next: the heap outlives a launch.
__device__ Node *head;

__global__ void buildList(int n) {
    Node *h = nullptr;
    for (int i = 0; i < n; i++) { Node *x = new Node; x->value = i * i; x->next = h; h = x; }
    head = h;
}

__global__ void sumAndDeleteList(int *out) {
    int s = 0, count = 0;
    for (Node *x = head; x != nullptr;) { Node *next = x->next; s += x->value; count++; delete x; x = next; }
    head = nullptr;
    out[0] = s;
    out[1] = count;
}

// One thread takes 64 KiB blocks until malloc returns NULL, then frees them all and tries once more.
__global__ void exhaustOne(int *out) {
    void *blocks[64];
    int n = 0;
    while (n < 64 && (blocks[n] = malloc(64 * 1024)) != nullptr) n++;
    out[0] = n;
    for (int i = 0; i < n; i++) free(blocks[i]);
    void *again = malloc(64 * 1024);
    out[1] = again != nullptr;
    free(again);
}

// Every thread asks for 32 KiB at once: as many succeed as the heap holds, the rest get NULL.
__global__ void exhaustMany(int *got, int *nulls) {
    void *p = malloc(32 * 1024);
    atomicAdd(p != nullptr ? got : nulls, 1);
    __syncthreads();
    free(p);
}

__device__ int *kept;

__global__ void keepOne() { kept = (int *) malloc(16); kept[0] = 7; }
__global__ void freeKept() { free(kept); }
__global__ void freeKeptPlus4() { free(kept + 1); }

int main(int argc, char **argv) {
    size_t limit = 0;
    CHECK(cudaDeviceGetLimit(&limit, cudaLimitMallocHeapSize));
    if (limit != 8u << 20) { printf("FAIL default heap %zu\n", limit); return 1; }
    CHECK(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 1u << 20));
    CHECK(cudaDeviceGetLimit(&limit, cudaLimitMallocHeapSize));
    if (limit != 1u << 20) { printf("FAIL heap limit read back %zu\n", limit); return 1; }

    const int threads = 128, n = 10;
    int *sums;
    CHECK(cudaMalloc(&sums, threads * sizeof(int)));
    perThread<<<2, 64>>>(sums, n);
    CHECK(cudaDeviceSynchronize());
    int host[threads];
    CHECK(cudaMemcpy(host, sums, sizeof host, cudaMemcpyDeviceToHost));
    for (int t = 0; t < threads; t++) {
        int want = n * t + n * (n - 1) / 2;
        if (host[t] != want) { printf("FAIL thread %d sum %d, want %d\n", t, host[t], want); return 1; }
    }
    printf("per-thread blocks: %d threads ok\n", threads);

    // The heap's size is fixed once a kernel that uses malloc has been launched.
    if (cudaDeviceSetLimit(cudaLimitMallocHeapSize, 2u << 20) != cudaErrorInvalidValue) { printf("FAIL limit changed after launch\n"); return 1; }
    cudaGetLastError();

    int *out;
    CHECK(cudaMalloc(&out, 4 * sizeof(int)));
    buildList<<<1, 1>>>(20);
    CHECK(cudaDeviceSynchronize());
    sumAndDeleteList<<<1, 1>>>(out);
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(host, out, 2 * sizeof(int), cudaMemcpyDeviceToHost));
    if (host[0] != 2470 || host[1] != 20) { printf("FAIL list sum %d count %d\n", host[0], host[1]); return 1; }
    printf("list across launches: sum %d of %d nodes\n", host[0], host[1]);

    exhaustOne<<<1, 1>>>(out);
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(host, out, 2 * sizeof(int), cudaMemcpyDeviceToHost));
    // 1 MiB holds 15 blocks of 64 KiB and their headers, not 16.
    if (host[0] != 15 || host[1] != 1) { printf("FAIL exhausted after %d blocks, again %d\n", host[0], host[1]); return 1; }
    printf("one thread: %d blocks of 64 KiB, then NULL\n", host[0]);

    CHECK(cudaMemset(out, 0, 4 * sizeof(int)));
    exhaustMany<<<1, 64>>>(out, out + 1);
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(host, out, 2 * sizeof(int), cudaMemcpyDeviceToHost));
    // At most 31 blocks of 32 KiB and their headers fit in 1 MiB (fewer where free blocks lie apart).
    if (host[0] + host[1] != 64 || host[0] < 16 || host[0] > 31) { printf("FAIL %d got a block, %d NULL\n", host[0], host[1]); return 1; }
    printf("64 threads: %d got 32 KiB, %d got NULL\n", host[0], host[1]);

    // Memory from a kernel's malloc cannot be used by runtime API calls.
    keepOne<<<1, 1>>>();
    CHECK(cudaDeviceSynchronize());
    int *k;
    CHECK(cudaMemcpyFromSymbol(&k, kept, sizeof k));
    int v = 0;
    if (cudaMemcpy(&v, k, sizeof v, cudaMemcpyDeviceToHost) != cudaErrorInvalidValue) { printf("FAIL cudaMemcpy from the heap\n"); return 1; }
    cudaGetLastError();
    printf("PASS device_heap\n");
    fflush(stdout);

    if (argc > 1 && strcmp(argv[1], "double-free") == 0) {
        freeKept<<<1, 1>>>();
        CHECK(cudaDeviceSynchronize());
        freeKept<<<1, 1>>>();
        printf("after the double free: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    } else if (argc > 1 && strcmp(argv[1], "invalid-free") == 0) {
        freeKeptPlus4<<<1, 1>>>();
        printf("after the invalid free: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    }
    return 0;
}
