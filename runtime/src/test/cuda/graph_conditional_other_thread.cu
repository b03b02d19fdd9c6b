// A kernel of another graph, launched on another thread while a launch of a graph holding a
// conditional handle's node runs, sets that handle: CUDA gives the call no meaning there ("The
// conditional handle must be associated with a conditional node in this graph or one of its
// children"), and BarrierScope diagnoses it (graph-conditional-not-launched, cudaErrorLaunchFailure)
// rather than changing the running launch's condition (docs/runtime.md, "Conditional nodes").
// Graph A: a host node that lets thread 2 go and waits for it, then a kernel setting the handle and
// an IF node. While A's launch waits in its host node, thread 2 launches graph B, whose only kernel
// sets A's handle.
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <thread>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
    printf("FAIL %s: %s\n", #x, cudaGetErrorString(e)); return 1; } } while (0)

__global__ void set_true(cudaGraphConditionalHandle h) { cudaGraphSetConditional(h, 1u); }
__global__ void intruder(cudaGraphConditionalHandle h) { cudaGraphSetConditional(h, 0u); }
__global__ void count(int *n) { atomicAdd(n, 1); }

static std::mutex m;
static std::condition_variable cv;
static int stage;  // 1: A's launch is in its host node; 2: thread 2's launch of B has ended

static void in_a(void *) {  // A's host node: no CUDA calls, only host synchronization
    std::unique_lock<std::mutex> l(m);
    stage = 1;
    cv.notify_all();
    cv.wait(l, [] { return stage == 2; });
}

static cudaGraphNode_t kernel(cudaGraph_t g, const cudaGraphNode_t *dep, void *f, void **args) {
    cudaKernelNodeParams k = {};
    k.func = f;
    k.gridDim = dim3(1);
    k.blockDim = dim3(1);
    k.kernelParams = args;
    cudaGraphNode_t n = nullptr;
    cudaGraphAddKernelNode(&n, g, dep, dep ? 1 : 0, &k);
    return n;
}

int main() {
    int *n;
    CHECK(cudaMalloc(&n, sizeof(int)));
    CHECK(cudaMemset(n, 0, sizeof(int)));
    cudaGraph_t a, b;
    CHECK(cudaGraphCreate(&a, 0));
    CHECK(cudaGraphCreate(&b, 0));
    cudaGraphConditionalHandle h;
    CHECK(cudaGraphConditionalHandleCreate(&h, a, 0, 0));
    cudaHostNodeParams hp = {in_a, nullptr};
    cudaGraphNode_t host;
    CHECK(cudaGraphAddHostNode(&host, a, nullptr, 0, &hp));
    void *hargs[] = {&h}, *nargs[] = {&n};
    cudaGraphNode_t set = kernel(a, &host, (void *) set_true, hargs);
    cudaGraphNodeParams p = {};
    p.type = cudaGraphNodeTypeConditional;
    p.conditional.handle = h;
    p.conditional.type = cudaGraphCondTypeIf;
    p.conditional.size = 1;
    cudaGraphNode_t cond;
    CHECK(cudaGraphAddNode(&cond, a, &set, nullptr, 1, &p));
    kernel(p.conditional.phGraph_out[0], nullptr, (void *) count, nargs);
    kernel(b, nullptr, (void *) intruder, hargs);  // B holds no node with h
    cudaGraphExec_t xa, xb;
    CHECK(cudaGraphInstantiate(&xa, a, 0));
    CHECK(cudaGraphInstantiate(&xb, b, 0));

    cudaError_t got_b = cudaSuccess;
    std::thread t2([&] {
        {
            std::unique_lock<std::mutex> l(m);
            cv.wait(l, [] { return stage == 1; });
        }
        got_b = cudaGraphLaunch(xb, 0);
        std::lock_guard<std::mutex> l(m);
        stage = 2;
        cv.notify_all();
    });
    cudaError_t got_a = cudaGraphLaunch(xa, 0);
    t2.join();
    printf("graph B's launch: %s; graph A's launch: %s\n", cudaGetErrorName(got_b), cudaGetErrorName(got_a));
    if (got_b != cudaErrorLaunchFailure) {
        printf("FAIL the other graph's kernel set the running launch's handle undiagnosed\n");
        return 1;
    }
    printf("PASS graph_conditional_other_thread\n");
    return 0;
}
