// An executable graph updated while it runs (here from its own host node) to a graph whose
// conditional node uses another handle: the launch must give back the slot it took, not the new
// handle's, so that a later launch of another executable graph using the first handle runs
// rather than waiting forever for a slot nobody holds.
#include <cstdio>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
    printf("FAIL %s: %s\n", #x, cudaGetErrorString(e)); return 1; } } while (0)

__global__ void count(int *n) { atomicAdd(n, 1); }

struct update { cudaGraphExec_t x; cudaGraph_t to; int calls; cudaError_t result; };

static void host(void *p) {
    update *u = (update *) p;
    if (u->calls++ == 0) u->result = cudaGraphExecUpdate(u->x, u->to, nullptr);
}

// An IF node on a handle of the graph's own (default 1) counting in its body, then a host node.
static int make(cudaGraph_t *g, int *n, update *u) {
    CHECK(cudaGraphCreate(g, 0));
    cudaGraphConditionalHandle h;
    CHECK(cudaGraphConditionalHandleCreate(&h, *g, 1, cudaGraphCondAssignDefault));
    cudaGraphNodeParams p = {};
    p.type = cudaGraphNodeTypeConditional;
    p.conditional.handle = h;
    p.conditional.type = cudaGraphCondTypeIf;
    p.conditional.size = 1;
    cudaGraphNode_t cond, body, hn;
    CHECK(cudaGraphAddNode(&cond, *g, nullptr, nullptr, 0, &p));
    cudaKernelNodeParams k = {};
    void *args[] = {&n};
    k.func = (void *) count;
    k.gridDim = dim3(1);
    k.blockDim = dim3(1);
    k.kernelParams = args;
    CHECK(cudaGraphAddKernelNode(&body, p.conditional.phGraph_out[0], nullptr, 0, &k));
    cudaHostNodeParams hp = {host, u};
    CHECK(cudaGraphAddHostNode(&hn, *g, &cond, 1, &hp));
    return 0;
}

int main() {
    int *n;
    CHECK(cudaMalloc(&n, sizeof(int)));
    CHECK(cudaMemset(n, 0, sizeof(int)));
    update u = {nullptr, nullptr, 0, cudaErrorUnknown}, none = {nullptr, nullptr, 1, cudaSuccess};
    cudaGraph_t g, g2;
    if (make(&g, n, &u) || make(&g2, n, &none)) return 1;
    cudaGraphExec_t x0, x1;
    CHECK(cudaGraphInstantiate(&x0, g, 0));
    CHECK(cudaGraphInstantiate(&x1, g, 0));
    u.x = x0;
    u.to = g2;
    CHECK(cudaGraphLaunch(x0, 0));
    (void) cudaGetLastError();
    CHECK(cudaGraphLaunch(x1, 0)); // g's handle again: its slot must be free
    int counted;
    CHECK(cudaMemcpy(&counted, n, sizeof counted, cudaMemcpyDeviceToHost));
    if (counted != 2) {
        printf("FAIL %d of 2 counted (update from the host node: %s)\n", counted, cudaGetErrorString(u.result));
        return 1;
    }
    printf("PASS graph_conditional_update_during_launch (update from the host node: %s)\n", cudaGetErrorString(u.result));
    return 0;
}
