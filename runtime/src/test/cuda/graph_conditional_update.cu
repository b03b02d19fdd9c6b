// cudaGraphExecUpdate of a graph holding a conditional node (the Programming Guide's "Graph Update
// Limitations"): a graph of the same shape updates the executable graph, the body kernel's new
// argument included; another number of bodies ("Changing node parameters is not supported") or a
// body with another node count fails with cudaErrorGraphExecUpdateFailure and leaves it as it was.
#include <cstdio>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
    printf("FAIL %s: %s\n", #x, cudaGetErrorString(e)); return 1; } } while (0)
#define EXPECT(c) do { if (!(c)) { printf("FAIL line %d: %s\n", __LINE__, #c); return 1; } } while (0)

__global__ void add(int *v, int k) { *v += k; }

// A graph of one IF node (handle default 1) with `size` bodies; body 0 adds k, `extra` more times
// in a chain when extra > 0.
static cudaError_t build(cudaGraph_t *g, unsigned size, int *v, int *k, int extra) {
    cudaError_t e = cudaGraphCreate(g, 0);
    cudaGraphConditionalHandle h;
    if (e == cudaSuccess) e = cudaGraphConditionalHandleCreate(&h, *g, 1, cudaGraphCondAssignDefault);
    cudaGraphNodeParams p = {};
    p.type = cudaGraphNodeTypeConditional;
    p.conditional.handle = h;
    p.conditional.type = cudaGraphCondTypeIf;
    p.conditional.size = size;
    cudaGraphNode_t n, prev = nullptr;
    if (e == cudaSuccess) e = cudaGraphAddNode(&n, *g, nullptr, nullptr, 0, &p);
    void *args[] = {&v, k};
    cudaKernelNodeParams kp = {};
    kp.func = (void *) add;
    kp.gridDim = dim3(1);
    kp.blockDim = dim3(1);
    kp.kernelParams = args;
    for (int i = 0; e == cudaSuccess && i <= extra; i++) {
        e = cudaGraphAddKernelNode(&n, p.conditional.phGraph_out[0], prev ? &prev : nullptr, prev ? 1 : 0, &kp);
        prev = n;
    }
    return e;
}

static int reset(int *v) {
    int r = -1;
    cudaMemset(v, 0, sizeof r);
    cudaMemcpy(&r, v, sizeof r, cudaMemcpyDeviceToHost);
    return r;
}

int main() {
    int *v;
    CHECK(cudaMalloc(&v, sizeof(int)));
    int k1 = 1, k7 = 7;
    cudaGraph_t g, same, wider, longer;
    CHECK(build(&g, 1, v, &k1, 0));
    CHECK(build(&same, 1, v, &k7, 0));
    CHECK(build(&wider, 2, v, &k7, 0));
    CHECK(build(&longer, 1, v, &k7, 1));
    cudaGraphExec_t x;
    CHECK(cudaGraphInstantiate(&x, g, 0));
    int r;

    cudaGraphExecUpdateResultInfo info;
    EXPECT(cudaGraphExecUpdate(x, wider, &info) == cudaErrorGraphExecUpdateFailure);
    EXPECT(info.result == cudaGraphExecUpdateErrorParametersChanged);
    cudaGetLastError();
    EXPECT(cudaGraphExecUpdate(x, longer, &info) == cudaErrorGraphExecUpdateFailure);
    EXPECT(info.result == cudaGraphExecUpdateErrorTopologyChanged);
    cudaGetLastError();
    reset(v);
    CHECK(cudaGraphLaunch(x, 0));
    CHECK(cudaMemcpy(&r, v, sizeof r, cudaMemcpyDeviceToHost));
    EXPECT(r == 1); // unchanged by the refused updates

    CHECK(cudaGraphExecUpdate(x, same, &info));
    EXPECT(info.result == cudaGraphExecUpdateSuccess);
    reset(v);
    CHECK(cudaGraphLaunch(x, 0));
    CHECK(cudaMemcpy(&r, v, sizeof r, cudaMemcpyDeviceToHost));
    EXPECT(r == 7); // the body's kernel takes the new argument

    CHECK(cudaGraphExecDestroy(x));
    CHECK(cudaGraphDestroy(g));
    CHECK(cudaGraphDestroy(same));
    CHECK(cudaGraphDestroy(wider));
    CHECK(cudaGraphDestroy(longer));
    printf("PASS graph_conditional_update\n");
    return 0;
}
