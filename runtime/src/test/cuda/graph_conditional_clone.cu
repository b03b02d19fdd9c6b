// cudaGraphClone of a graph whose conditional node's body holds a memory allocation node: a graph
// with memory nodes "cannot be cloned" (cudaGraphAddMemAllocNode), and a clone copies the bodies,
// so the clone is refused rather than made with an empty body the original does not have.
// Without the memory node the clone copies the body, which runs.
#include <cstdio>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
    printf("FAIL %s: %s\n", #x, cudaGetErrorString(e)); return 1; } } while (0)
#define EXPECT(c) do { if (!(c)) { printf("FAIL line %d: %s\n", __LINE__, #c); return 1; } } while (0)

__global__ void add(int *v, int k) { *v += k; }

int main() {
    int *v, r, five = 5;
    CHECK(cudaMalloc(&v, sizeof(int)));
    CHECK(cudaMemset(v, 0, sizeof(int)));
    cudaGraph_t g;
    CHECK(cudaGraphCreate(&g, 0));
    cudaGraphConditionalHandle h;
    CHECK(cudaGraphConditionalHandleCreate(&h, g, 1, cudaGraphCondAssignDefault));
    cudaGraphNodeParams p = {};
    p.type = cudaGraphNodeTypeConditional;
    p.conditional.handle = h;
    p.conditional.type = cudaGraphCondTypeIf;
    p.conditional.size = 1;
    cudaGraphNode_t n, k, m;
    CHECK(cudaGraphAddNode(&n, g, nullptr, nullptr, 0, &p));
    cudaGraph_t body = p.conditional.phGraph_out[0];
    void *args[] = {&v, &five};
    cudaKernelNodeParams kp = {};
    kp.func = (void *) add;
    kp.gridDim = dim3(1);
    kp.blockDim = dim3(1);
    kp.kernelParams = args;
    CHECK(cudaGraphAddKernelNode(&k, body, nullptr, 0, &kp));
    cudaMemAllocNodeParams ap = {};
    ap.poolProps.allocType = cudaMemAllocationTypePinned;
    ap.poolProps.location.type = cudaMemLocationTypeDevice;
    ap.poolProps.location.id = 0;
    ap.bytesize = 256;
    CHECK(cudaGraphAddMemAllocNode(&m, body, nullptr, 0, &ap));
    cudaGraph_t c;
    EXPECT(cudaGraphClone(&c, g) == cudaErrorInvalidValue);
    cudaGetLastError();
    CHECK(cudaGraphDestroyNode(n));
    CHECK(cudaGraphConditionalHandleCreate(&h, g, 1, cudaGraphCondAssignDefault));
    CHECK(cudaGraphAddNode(&n, g, nullptr, nullptr, 0, &p));
    CHECK(cudaGraphAddKernelNode(&k, p.conditional.phGraph_out[0], nullptr, 0, &kp));
    CHECK(cudaGraphClone(&c, g));
    CHECK(cudaGraphDestroy(g)); // the clone's body is its own
    cudaGraphExec_t x;
    CHECK(cudaGraphInstantiate(&x, c, 0));
    CHECK(cudaGraphLaunch(x, 0));
    CHECK(cudaMemcpy(&r, v, sizeof r, cudaMemcpyDeviceToHost));
    EXPECT(r == 5);
    CHECK(cudaGraphExecDestroy(x));
    CHECK(cudaGraphDestroy(c));
    printf("PASS graph_conditional_clone\n");
    return 0;
}
