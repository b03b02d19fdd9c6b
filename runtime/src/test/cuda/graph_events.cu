// Event record and wait nodes (made by hand, read, changed in an executable graph, and captured
// with cudaEventRecordExternal / cudaEventWaitExternal), timing events (cudaEventDisableTiming
// refused by cudaEventElapsedTime, as documented), and cudaStreamBeginCaptureToGraph capturing
// into the program's own graph after one of its nodes.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void add(int *d, int v) { d[threadIdx.x] += v; }

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
    printf("FAIL line %d %s: %s\n", __LINE__, #x, cudaGetErrorString(e)); return 1; } } while (0)
#define EXPECT(c) do { if (!(c)) { printf("FAIL line %d: %s\n", __LINE__, #c); return 1; } } while (0)

int main() {
    int *d;
    CHECK(cudaMalloc(&d, 32 * sizeof(int)));
    CHECK(cudaMemset(d, 0, 32 * sizeof(int)));
    int one = 1, ten = 10;
    cudaEvent_t start, stop, other, outside, untimed;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    CHECK(cudaEventCreate(&other));
    CHECK(cudaEventCreate(&outside));
    CHECK(cudaEventCreateWithFlags(&untimed, cudaEventDisableTiming));
    EXPECT(cudaEventCreateWithFlags(&untimed, cudaEventInterprocess) == cudaErrorInvalidValue);
    cudaGetLastError();
    CHECK(cudaEventRecord(outside, 0));

    // start -> kernel -> stop, the kernel also waiting on an event recorded outside the graph.
    cudaGraph_t g;
    CHECK(cudaGraphCreate(&g, 0));
    cudaGraphNode_t rec1, wait, kern, rec2;
    CHECK(cudaGraphAddEventRecordNode(&rec1, g, nullptr, 0, start));
    CHECK(cudaGraphAddEventWaitNode(&wait, g, &rec1, 1, outside));
    void *args[] = {&d, &one};
    cudaKernelNodeParams kp = {};
    kp.func = (void *) add;
    kp.gridDim = dim3(1);
    kp.blockDim = dim3(32);
    kp.kernelParams = args;
    CHECK(cudaGraphAddKernelNode(&kern, g, &wait, 1, &kp));
    CHECK(cudaGraphAddEventRecordNode(&rec2, g, &kern, 1, stop));
    cudaGraphNodeType t;
    CHECK(cudaGraphNodeGetType(rec1, &t));
    EXPECT(t == cudaGraphNodeTypeEventRecord);
    CHECK(cudaGraphNodeGetType(wait, &t));
    EXPECT(t == cudaGraphNodeTypeWaitEvent);
    cudaEvent_t got;
    CHECK(cudaGraphEventWaitNodeGetEvent(wait, &got));
    EXPECT(got == outside);
    EXPECT(cudaGraphEventRecordNodeGetEvent(wait, &got) == cudaErrorInvalidValue);
    cudaGetLastError();

    float ms = -1;
    EXPECT(cudaEventElapsedTime(&ms, start, stop) == cudaErrorInvalidResourceHandle);  // not recorded yet
    cudaGetLastError();
    cudaGraphExec_t x;
    CHECK(cudaGraphInstantiate(&x, g, 0));
    CHECK(cudaGraphLaunch(x, 0));
    CHECK(cudaStreamSynchronize(0));
    CHECK(cudaEventQuery(stop));
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    EXPECT(ms > 0.0f);
    float same = -1;
    CHECK(cudaEventElapsedTime(&same, stop, stop));
    EXPECT(same == 0.0f);
    int h[32];
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 32; i++) EXPECT(h[i] == 1);

    // The executable graph's last node now records `other`; the graph's node still `stop`.
    CHECK(cudaGraphExecEventRecordNodeSetEvent(x, rec2, other));
    CHECK(cudaGraphLaunch(x, 0));
    float ms2 = -1;
    CHECK(cudaEventElapsedTime(&ms2, start, other));
    EXPECT(ms2 == ms);  // the same kernel, the same virtual cycles
    CHECK(cudaGraphEventRecordNodeGetEvent(rec2, &got));
    EXPECT(got == stop);
    CHECK(cudaGraphEventRecordNodeSetEvent(rec2, untimed));
    cudaGraphExec_t x2;
    CHECK(cudaGraphInstantiate(&x2, g, 0));
    CHECK(cudaGraphLaunch(x2, 0));
    EXPECT(cudaEventElapsedTime(&ms, start, untimed) == cudaErrorInvalidResourceHandle);  // cudaEventDisableTiming
    cudaGetLastError();
    CHECK(cudaEventQuery(untimed));

    // Captured: an external record and an external wait become nodes; nothing runs until launched.
    cudaStream_t s;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    CHECK(cudaStreamWaitEvent(s, outside, cudaEventWaitExternal));
    add<<<1, 32, 0, s>>>(d, ten);
    CHECK(cudaEventRecordWithFlags(other, s, cudaEventRecordExternal));
    cudaGraph_t cg;
    CHECK(cudaStreamEndCapture(s, &cg));
    size_t n = 0;
    CHECK(cudaGraphGetNodes(cg, nullptr, &n));
    EXPECT(n == 3);
    cudaGraphNode_t nodes[3];
    CHECK(cudaGraphGetNodes(cg, nodes, &n));
    CHECK(cudaGraphNodeGetType(nodes[0], &t));
    EXPECT(t == cudaGraphNodeTypeWaitEvent);
    CHECK(cudaGraphNodeGetType(nodes[2], &t));
    EXPECT(t == cudaGraphNodeTypeEventRecord);
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    EXPECT(h[0] == 3);  // three launches of +1 so far; the captured +10 has not run
    cudaGraphExec_t xc;
    CHECK(cudaGraphInstantiate(&xc, cg, 0));
    CHECK(cudaGraphLaunch(xc, s));
    CHECK(cudaStreamSynchronize(s));
    CHECK(cudaEventQuery(other));
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    EXPECT(h[0] == 13);

    // Capture into the program's own graph, after its memset node.
    cudaGraph_t mine;
    CHECK(cudaGraphCreate(&mine, 0));
    cudaGraphNode_t zero;
    cudaMemsetParams ms0 = {};
    ms0.dst = d;
    ms0.elementSize = 4;
    ms0.width = 32;
    ms0.height = 1;
    ms0.value = 100;
    CHECK(cudaGraphAddMemsetNode(&zero, mine, nullptr, 0, &ms0));
    EXPECT(cudaStreamBeginCaptureToGraph(s, mine, &kern, nullptr, 1, cudaStreamCaptureModeGlobal) == cudaErrorInvalidValue);
    cudaGetLastError();
    CHECK(cudaStreamBeginCaptureToGraph(s, mine, &zero, nullptr, 1, cudaStreamCaptureModeGlobal));
    cudaStream_t s2;
    CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
    EXPECT(cudaStreamBeginCaptureToGraph(s2, mine, nullptr, nullptr, 0, cudaStreamCaptureModeRelaxed) == cudaErrorInvalidValue);
    cudaGetLastError();
    add<<<1, 32, 0, s>>>(d, one);
    cudaGraph_t back = nullptr;
    CHECK(cudaStreamEndCapture(s, &back));
    EXPECT(back == mine);
    CHECK(cudaGraphGetNodes(mine, nullptr, &n));
    EXPECT(n == 2);
    cudaGraphNode_t from[2], to[2];
    size_t edges = 2;
    CHECK(cudaGraphGetEdges(mine, from, to, nullptr, &edges));
    EXPECT(edges == 1 && from[0] == zero);
    cudaGraphExec_t xm;
    CHECK(cudaGraphInstantiate(&xm, mine, 0));
    CHECK(cudaGraphLaunch(xm, s));
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 32; i++) EXPECT(h[i] == 101);

    CHECK(cudaGraphExecDestroy(x));
    CHECK(cudaGraphExecDestroy(x2));
    CHECK(cudaGraphExecDestroy(xc));
    CHECK(cudaGraphExecDestroy(xm));
    CHECK(cudaGraphDestroy(g));
    CHECK(cudaGraphDestroy(cg));
    CHECK(cudaGraphDestroy(mine));
    printf("PASS graph_events\n");
    return 0;
}
