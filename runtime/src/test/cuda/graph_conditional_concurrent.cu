// Two executable graphs instantiated from one graph share its conditional handle, and CUDA gives
// each launch a condition value of its own ("the value is undefined at the start of each graph
// execution" unless a default is applied). Two host threads each launch their own executable
// graph many times at once into their own stream: each launch's first kernel sets the condition
// to 1, and its IF body counts. Every launch must succeed and count exactly once.
#include <cstdio>
#include <thread>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
    printf("FAIL %s: %s\n", #x, cudaGetErrorString(e)); return 1; } } while (0)

enum { LAUNCHES = 40 };

__global__ void set_true(cudaGraphConditionalHandle h) { cudaGraphSetConditional(h, 1u); }
__global__ void count(int *n) { atomicAdd(n, 1); }

static void launches(cudaGraphExec_t x, int *failures) {
    cudaStream_t s;
    if (cudaStreamCreate(&s) != cudaSuccess) { ++*failures; return; }
    for (int i = 0; i < LAUNCHES; i++) {
        cudaError_t e = cudaGraphLaunch(x, s);
        if (e != cudaSuccess) {
            printf("launch %d: %s\n", i, cudaGetErrorString(e));
            ++*failures;
        }
    }
    if (cudaStreamSynchronize(s) != cudaSuccess) ++*failures;
    cudaStreamDestroy(s);
}

int main() {
    int *n;
    CHECK(cudaMalloc(&n, sizeof(int)));
    CHECK(cudaMemset(n, 0, sizeof(int)));
    cudaGraph_t g;
    CHECK(cudaGraphCreate(&g, 0));
    cudaGraphConditionalHandle h;
    CHECK(cudaGraphConditionalHandleCreate(&h, g, 0, 0)); // no default: only the kernel sets it
    cudaKernelNodeParams k = {};
    void *sargs[] = {&h};
    k.func = (void *) set_true;
    k.gridDim = dim3(1);
    k.blockDim = dim3(1);
    k.kernelParams = sargs;
    cudaGraphNode_t set;
    CHECK(cudaGraphAddKernelNode(&set, g, nullptr, 0, &k));
    cudaGraphNodeParams p = {};
    p.type = cudaGraphNodeTypeConditional;
    p.conditional.handle = h;
    p.conditional.type = cudaGraphCondTypeIf;
    p.conditional.size = 1;
    cudaGraphNode_t cond;
    CHECK(cudaGraphAddNode(&cond, g, &set, nullptr, 1, &p));
    void *cargs[] = {&n};
    k.func = (void *) count;
    k.kernelParams = cargs;
    cudaGraphNode_t body;
    CHECK(cudaGraphAddKernelNode(&body, p.conditional.phGraph_out[0], nullptr, 0, &k));
    cudaGraphExec_t x[2];
    CHECK(cudaGraphInstantiate(&x[0], g, 0));
    CHECK(cudaGraphInstantiate(&x[1], g, 0));
    int failures[2] = {};
    std::thread t0(launches, x[0], &failures[0]), t1(launches, x[1], &failures[1]);
    t0.join();
    t1.join();
    int counted;
    CHECK(cudaMemcpy(&counted, n, sizeof counted, cudaMemcpyDeviceToHost));
    if (failures[0] + failures[1] != 0 || counted != 2 * LAUNCHES) {
        printf("FAIL %d failed launches, %d of %d counted\n", failures[0] + failures[1], counted, 2 * LAUNCHES);
        return 1;
    }
    CHECK(cudaGraphExecDestroy(x[0]));
    CHECK(cudaGraphExecDestroy(x[1]));
    CHECK(cudaGraphDestroy(g));
    printf("PASS graph_conditional_concurrent\n");
    return 0;
}
