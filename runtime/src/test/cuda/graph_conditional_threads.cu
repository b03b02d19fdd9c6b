// Host threads each build their own graph (CUDA allows threads to work on different graphs at
// once) with many conditional handles and nodes: every handle made must be known to the runtime,
// each node taking its handle. The runtime's list of handles is shared by all graphs.
#include <cstdio>
#include <thread>
#include <cuda_runtime.h>

enum { THREADS = 4, HANDLES = 300 };

static int work(int *failures) {
    cudaGraph_t g;
    if (cudaGraphCreate(&g, 0) != cudaSuccess) return ++*failures;
    cudaGraphConditionalHandle h[HANDLES];
    for (int i = 0; i < HANDLES; i++) {
        if (cudaGraphConditionalHandleCreate(&h[i], g, 0, cudaGraphCondAssignDefault) != cudaSuccess) ++*failures;
    }
    for (int i = 0; i < HANDLES; i++) {
        cudaGraphNodeParams p = {};
        p.type = cudaGraphNodeTypeConditional;
        p.conditional.handle = h[i];
        p.conditional.type = cudaGraphCondTypeIf;
        p.conditional.size = 1;
        cudaGraphNode_t n;
        if (cudaGraphAddNode(&n, g, nullptr, nullptr, 0, &p) != cudaSuccess) ++*failures;
    }
    cudaGraphExec_t x;
    if (cudaGraphInstantiate(&x, g, 0) != cudaSuccess || cudaGraphLaunch(x, 0) != cudaSuccess) ++*failures;
    else cudaGraphExecDestroy(x);
    cudaGraphDestroy(g);
    return *failures;
}

int main() {
    int failures[THREADS] = {};
    std::thread t[THREADS];
    for (int i = 0; i < THREADS; i++) t[i] = std::thread(work, &failures[i]);
    for (int i = 0; i < THREADS; i++) t[i].join();
    int total = 0;
    for (int i = 0; i < THREADS; i++) total += failures[i];
    if (total) {
        printf("FAIL %d calls failed\n", total);
        return 1;
    }
    printf("PASS graph_conditional_threads\n");
    return 0;
}
