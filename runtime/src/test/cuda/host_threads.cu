// A host program that drives the device from several std::threads at once, as a server or a
// thread-safety test does: each thread sets the device, makes its own stream, events and pool
// allocations, launches kernels, copies back and checks its own results, many times over, while
// the others do the same; each thread's last error is its own (a refused launch in one thread is
// not seen by the others); a stream captured in thread-local mode in one thread does not stop
// the others' work.
#include <atomic>
#include <cstdio>
#include <thread>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("FAIL thread %d line %d %s: %s\n", id, __LINE__, #x, cudaGetErrorName(e_)); failures++; return; } } while (0)

static std::atomic<int> failures{0};

__global__ void fill(int *p, int n, int base) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) p[i] = base + i;
}

__global__ void scale(int *p, int n, int k) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) p[i] *= k;
}

static void worker(int id, int rounds) {
    CHECK(cudaSetDevice(0));
    cudaStream_t s;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    cudaEvent_t done;
    CHECK(cudaEventCreateWithFlags(&done, cudaEventDisableTiming));
    const int n = 300 + 37 * id;
    std::vector<int> host(n);
    for (int r = 0; r < rounds; r++) {
        int *d = nullptr;
        CHECK(cudaMallocAsync(&d, n * sizeof(int), s));
        fill<<<2, 64, 0, s>>>(d, n, 1000 * id + r);
        CHECK(cudaGetLastError());
        scale<<<2, 64, 0, s>>>(d, n, id + 2);
        CHECK(cudaGetLastError());
        CHECK(cudaMemcpyAsync(host.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost, s));
        CHECK(cudaFreeAsync(d, s));
        CHECK(cudaEventRecord(done, s));
        CHECK(cudaEventSynchronize(done));
        for (int i = 0; i < n; i++) {
            if (host[i] != (1000 * id + r + i) * (id + 2)) {
                printf("FAIL thread %d round %d at %d: %d\n", id, r, i, host[i]);
                failures++;
                return;
            }
        }
        if (id == 1 && r == 2) {
            // A refused launch: this thread's last error, nobody else's.
            fill<<<1, 2048, 0, s>>>(nullptr, 0, 0);
            if (cudaGetLastError() != cudaErrorInvalidConfiguration) { printf("FAIL thread 1: no launch error\n"); failures++; }
        }
        if (id == 2 && r == 1) {
            // A thread-local capture on this thread's stream while the others keep launching.
            cudaGraph_t g;
            CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
            int *dummy = nullptr;
            CHECK(cudaMallocAsync(&dummy, 64, s));
            fill<<<1, 16, 0, s>>>(dummy, 16, 7);
            CHECK(cudaFreeAsync(dummy, s));
            CHECK(cudaStreamEndCapture(s, &g));
            cudaGraphExec_t x;
            CHECK(cudaGraphInstantiate(&x, g, 0));
            CHECK(cudaGraphLaunch(x, s));
            CHECK(cudaStreamSynchronize(s));
            CHECK(cudaGraphExecDestroy(x));
            CHECK(cudaGraphDestroy(g));
        }
    }
    if (cudaGetLastError() != cudaSuccess) { printf("FAIL thread %d: a last error it did not cause\n", id); failures++; }
    CHECK(cudaEventDestroy(done));
    CHECK(cudaStreamDestroy(s));
}

int main() {
    const int threads = 4, rounds = 6;
    std::vector<std::thread> pool;
    for (int i = 0; i < threads; i++) pool.emplace_back(worker, i, rounds);
    for (auto &t : pool) t.join();
    if (cudaDeviceSynchronize() != cudaSuccess) { printf("FAIL synchronize\n"); failures++; }
    if (failures) {
        printf("%d FAILED\n", failures.load());
        return 1;
    }
    printf("PASS host_threads %d threads x %d rounds\n", threads, rounds);
    return 0;
}
