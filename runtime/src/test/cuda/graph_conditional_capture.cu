// A conditional node's body being captured into (cudaStreamBeginCaptureToGraph) goes with its node
// and its node's graph, so neither may be destroyed until the capture ends ("All operations other
// than destroy and node removal are permitted on the graph while the capture sequence is in
// progress"); afterwards the captured body runs in a launch.
#include <cstdio>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
    printf("FAIL %s: %s\n", #x, cudaGetErrorString(e)); return 1; } } while (0)
#define EXPECT(c) do { if (!(c)) { printf("FAIL line %d: %s\n", __LINE__, #c); return 1; } } while (0)

__global__ void add(int *v, int k) { *v += k; }

int main() {
    int *v, r;
    CHECK(cudaMalloc(&v, sizeof(int)));
    CHECK(cudaMemset(v, 0, sizeof(int)));
    cudaStream_t s;
    CHECK(cudaStreamCreate(&s));
    cudaGraph_t g;
    CHECK(cudaGraphCreate(&g, 0));
    cudaGraphConditionalHandle h;
    CHECK(cudaGraphConditionalHandleCreate(&h, g, 1, cudaGraphCondAssignDefault));
    cudaGraphNodeParams p = {};
    p.type = cudaGraphNodeTypeConditional;
    p.conditional.handle = h;
    p.conditional.type = cudaGraphCondTypeIf;
    p.conditional.size = 1;
    cudaGraphNode_t n;
    CHECK(cudaGraphAddNode(&n, g, nullptr, nullptr, 0, &p));
    cudaGraph_t body = p.conditional.phGraph_out[0];
    CHECK(cudaStreamBeginCaptureToGraph(s, body, nullptr, nullptr, 0, cudaStreamCaptureModeGlobal));
    add<<<1, 1, 0, s>>>(v, 1);
    EXPECT(cudaGraphDestroyNode(n) == cudaErrorInvalidValue);
    cudaGetLastError();
    EXPECT(cudaGraphDestroy(g) == cudaErrorInvalidValue);
    cudaGetLastError();
    add<<<1, 1, 0, s>>>(v, 2);
    cudaGraph_t captured;
    CHECK(cudaStreamEndCapture(s, &captured));
    EXPECT(captured == body);
    cudaGraphExec_t x;
    CHECK(cudaGraphInstantiate(&x, g, 0));
    CHECK(cudaGraphLaunch(x, s));
    CHECK(cudaStreamSynchronize(s));
    CHECK(cudaMemcpy(&r, v, sizeof r, cudaMemcpyDeviceToHost));
    EXPECT(r == 3);
    CHECK(cudaGraphExecDestroy(x));
    CHECK(cudaGraphDestroyNode(n)); // the capture is over: the node and its body go
    CHECK(cudaGraphDestroy(g));
    CHECK(cudaStreamDestroy(s));
    printf("PASS graph_conditional_capture\n");
    return 0;
}
