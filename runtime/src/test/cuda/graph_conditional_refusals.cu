// Conditional handles and nodes refused as CUDA documents: a handle is for the graph it was made
// for ("The conditional handle must be associated with a conditional node in this graph or one of
// its children", cuGraphConditionalHandleCreate), and a SWITCH's size is a number of body graphs
// to make, so a garbage one (2^31, a negative int) is cudaErrorInvalidValue, not an abort. What
// is allowed still works: a handle of a graph used in a body graph within it, then launched.
#include <cstdio>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
    printf("FAIL %s: %s\n", #x, cudaGetErrorString(e)); return 1; } } while (0)
#define EXPECT(c) do { if (!(c)) { printf("FAIL line %d: %s\n", __LINE__, #c); return 1; } } while (0)

__global__ void add(int *v, int k) { *v += k; }

static cudaError_t conditional(cudaGraph_t g, cudaGraphConditionalHandle h, cudaGraphConditionalNodeType type,
                               unsigned size, cudaGraph_t *body0) {
    cudaGraphNodeParams p = {};
    p.type = cudaGraphNodeTypeConditional;
    p.conditional.handle = h;
    p.conditional.type = type;
    p.conditional.size = size;
    cudaGraphNode_t n;
    cudaError_t e = cudaGraphAddNode(&n, g, nullptr, nullptr, 0, &p);
    if (e == cudaSuccess && body0 != nullptr) *body0 = p.conditional.phGraph_out[0];
    cudaGetLastError();
    return e;
}

int main() {
    int *v, r;
    CHECK(cudaMalloc(&v, sizeof(int)));
    CHECK(cudaMemset(v, 0, sizeof(int)));
    cudaGraph_t a, b, abody, inner;
    CHECK(cudaGraphCreate(&a, 0));
    CHECK(cudaGraphCreate(&b, 0));
    cudaGraphConditionalHandle ha, ha2, hbody;
    CHECK(cudaGraphConditionalHandleCreate(&ha, a, 1, cudaGraphCondAssignDefault));
    CHECK(cudaGraphConditionalHandleCreate(&ha2, a, 1, cudaGraphCondAssignDefault));

    // A's handle in another graph's node: refused, and the handle is still free for A.
    EXPECT(conditional(b, ha, cudaGraphCondTypeIf, 1, nullptr) == cudaErrorInvalidValue);
    CHECK(conditional(a, ha, cudaGraphCondTypeIf, 1, &abody));
    // A's second handle in a body graph within A: allowed ("or one of its children").
    CHECK(conditional(abody, ha2, cudaGraphCondTypeIf, 1, &inner));
    // A handle made for the body graph is not for A itself, which holds the body.
    CHECK(cudaGraphConditionalHandleCreate(&hbody, abody, 1, cudaGraphCondAssignDefault));
    EXPECT(conditional(a, hbody, cudaGraphCondTypeIf, 1, nullptr) == cudaErrorInvalidValue);
    CHECK(conditional(abody, hbody, cudaGraphCondTypeIf, 1, nullptr)); // (every handle gets its node: CUDA may
                                                                       // refuse to instantiate a graph otherwise)
    // Nor for a clone of A: the clone is another graph.
    cudaGraph_t c;
    cudaGraphConditionalHandle hc;
    CHECK(cudaGraphClone(&c, a));
    CHECK(cudaGraphConditionalHandleCreate(&hc, a, 0, cudaGraphCondAssignDefault));
    EXPECT(conditional(c, hc, cudaGraphCondTypeIf, 1, nullptr) == cudaErrorInvalidValue);
    CHECK(conditional(a, hc, cudaGraphCondTypeIf, 1, nullptr)); // default 0: its empty body does not run

    // SWITCH sizes that are no number of bodies to make.
    cudaGraphConditionalHandle hs;
    CHECK(cudaGraphConditionalHandleCreate(&hs, b, 0, cudaGraphCondAssignDefault));
    EXPECT(conditional(b, hs, cudaGraphCondTypeSwitch, 1u << 31, nullptr) == cudaErrorInvalidValue);
    EXPECT(conditional(b, hs, cudaGraphCondTypeSwitch, (unsigned) -5, nullptr) == cudaErrorInvalidValue);
    EXPECT(conditional(b, hs, cudaGraphCondTypeSwitch, 65537, nullptr) == cudaErrorInvalidValue);
    EXPECT(conditional(b, hs, cudaGraphCondTypeSwitch, 0, nullptr) == cudaErrorInvalidValue);
    cudaGraph_t s0;
    CHECK(conditional(b, hs, cudaGraphCondTypeSwitch, 3, &s0)); // value 0 (its default): body 0

    // What was allowed runs: A's IF (default 1) runs its body, whose IF (default 1) adds 5;
    // B's SWITCH runs body 0, which adds 7.
    int five = 5, seven = 7;
    void *a5[] = {&v, &five}, *a7[] = {&v, &seven};
    cudaKernelNodeParams k = {};
    k.func = (void *) add;
    k.gridDim = dim3(1);
    k.blockDim = dim3(1);
    k.kernelParams = a5;
    cudaGraphNode_t n;
    CHECK(cudaGraphAddKernelNode(&n, inner, nullptr, 0, &k));
    k.kernelParams = a7;
    CHECK(cudaGraphAddKernelNode(&n, s0, nullptr, 0, &k));
    cudaGraphExec_t xa, xb;
    CHECK(cudaGraphInstantiate(&xa, a, 0));
    CHECK(cudaGraphInstantiate(&xb, b, 0));
    CHECK(cudaGraphLaunch(xa, 0));
    CHECK(cudaGraphLaunch(xb, 0));
    CHECK(cudaMemcpy(&r, v, sizeof r, cudaMemcpyDeviceToHost));
    EXPECT(r == 12);
    CHECK(cudaGraphExecDestroy(xa));
    CHECK(cudaGraphExecDestroy(xb));
    CHECK(cudaGraphDestroy(c));
    CHECK(cudaGraphDestroy(a));
    CHECK(cudaGraphDestroy(b));
    printf("PASS graph_conditional_refusals\n");
    return 0;
}
