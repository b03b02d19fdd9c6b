// CUDA graphs: one built node by node (memsets of 4- and 2-byte elements, kernels, an empty join,
// a copy, a host node), one recorded by stream capture with a fork to a second stream and a join
// back; nothing runs while it is recorded, and each launch replays all of it.
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

__global__ void scale(int *p, int k, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] *= k;
}

__global__ void add(int *dst, const int *a, const int *b, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) dst[i] = a[i] + b[i];
}

__global__ void inc(int *p, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] += 1;
}

__device__ int sym[4];

static void CUDART_CB count_call(void *counter) { ++*(int *) counter; }

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("FAIL line %d: %s: %s\n", __LINE__, #x, cudaGetErrorName(e_)); return 1; } } while (0)
#define EXPECT(c, ...) do { if (!(c)) { printf("FAIL line %d: ", __LINE__); printf(__VA_ARGS__); printf("\n"); return 1; } } while (0)

static const int n = 100;

static int by_hand(int *a, int *b, int *c, unsigned short *d, size_t dpitch, cudaStream_t s) {
    static int h[n];
    int host_calls = 0;
    cudaGraph_t g;
    CHECK(cudaGraphCreate(&g, 0));
    cudaGraphNode_t setA, setB, setD, scA, scB, join, sum, copy, host;
    cudaMemsetParams ms = {};
    ms.dst = a; ms.value = 3; ms.elementSize = 4; ms.width = n; ms.height = 1;
    CHECK(cudaGraphAddMemsetNode(&setA, g, nullptr, 0, &ms));
    ms.dst = b; ms.value = 5;
    CHECK(cudaGraphAddMemsetNode(&setB, g, nullptr, 0, &ms));
    ms.dst = d; ms.value = 0xBEEF; ms.elementSize = 2; ms.width = 10; ms.height = 3; ms.pitch = dpitch;
    CHECK(cudaGraphAddMemsetNode(&setD, g, nullptr, 0, &ms));
    int k = 2, len = n;
    void *argsA[] = {&a, &k, &len};
    cudaKernelNodeParams kp = {};
    kp.func = (void *) scale; kp.gridDim = dim3(1); kp.blockDim = dim3(128); kp.kernelParams = argsA;
    CHECK(cudaGraphAddKernelNode(&scA, g, &setA, 1, &kp));
    k = 10; // the arguments were copied when the node was added: this changes nothing for scA
    void *argsB[] = {&b, &k, &len};
    kp.kernelParams = argsB;
    CHECK(cudaGraphAddKernelNode(&scB, g, &setB, 1, &kp));
    k = 1000;
    cudaGraphNode_t both[] = {scA, scB};
    CHECK(cudaGraphAddEmptyNode(&join, g, both, 2));
    void *argsSum[] = {&c, &a, &b, &len};
    kp.func = (void *) add; kp.kernelParams = argsSum;
    CHECK(cudaGraphAddKernelNode(&sum, g, &join, 1, &kp));
    CHECK(cudaGraphAddMemcpyNode1D(&copy, g, &sum, 1, h, c, sizeof h, cudaMemcpyDeviceToHost));
    cudaHostNodeParams hp = {count_call, &host_calls};
    CHECK(cudaGraphAddHostNode(&host, g, &copy, 1, &hp));

    size_t count = 0;
    CHECK(cudaGraphGetNodes(g, nullptr, &count));
    EXPECT(count == 9, "%zu nodes", count);
    CHECK(cudaGraphGetRootNodes(g, nullptr, &count));
    EXPECT(count == 3, "%zu root nodes", count);
    cudaGraphNodeType type;
    CHECK(cudaGraphNodeGetType(copy, &type));
    EXPECT(type == cudaGraphNodeTypeMemcpy, "node type %d", (int) type);

    cudaGraphExec_t x;
    CHECK(cudaGraphInstantiate(&x, g, 0));
    CHECK(cudaGraphDestroy(g)); // the executable graph is a snapshot: it outlives the graph
    EXPECT(host_calls == 0, "the host node ran before a launch");
    for (int round = 1; round <= 2; round++) {
        memset(h, 0, sizeof h);
        CHECK(cudaGraphLaunch(x, s));
        CHECK(cudaStreamSynchronize(s));
        for (int i = 0; i < n; i++) EXPECT(h[i] == 3 * 2 + 5 * 10, "round %d: h[%d] = %d", round, i, h[i]);
        EXPECT(host_calls == round, "host node ran %d times after %d launches", host_calls, round);
    }
    unsigned short rows[3][256];
    CHECK(cudaMemcpy2D(rows, sizeof rows[0], d, dpitch, sizeof rows[0], 3, cudaMemcpyDeviceToHost));
    for (int y = 0; y < 3; y++)
        for (int i = 0; i < 12; i++) EXPECT(rows[y][i] == (i < 10 ? 0xBEEF : 0), "2-byte memset row %d [%d] = %x", y, i, rows[y][i]);
    CHECK(cudaGraphExecDestroy(x));
    return 0;
}

static int captured(int *a, int *b, int *c, cudaStream_t s1, cudaStream_t s2) {
    static int h[n];
    int host_calls = 0;
    cudaEvent_t fork, back;
    CHECK(cudaEventCreate(&fork));
    CHECK(cudaEventCreate(&back));
    const size_t bytes = n * sizeof(int);
    CHECK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
    cudaStreamCaptureStatus st;
    CHECK(cudaStreamIsCapturing(s1, &st));
    EXPECT(st == cudaStreamCaptureStatusActive, "s1 status %d", (int) st);
    unsigned long long id = 0;
    cudaGraph_t being = nullptr;
    const cudaGraphNode_t *deps = nullptr;
    size_t ndeps = 99;
    CHECK(cudaStreamGetCaptureInfo(s1, &st, &id, &being, &deps, nullptr, &ndeps));
    EXPECT(id != 0 && being != nullptr && ndeps == 0, "capture info id %llu, %zu dependencies", id, ndeps);
    CHECK(cudaMemsetAsync(a, 0, bytes, s1));
    inc<<<1, 128, 0, s1>>>(a, n);                            // a = 1
    CHECK(cudaGetLastError());
    CHECK(cudaStreamGetCaptureInfo(s1, &st, &id, &being, &deps, nullptr, &ndeps));
    EXPECT(ndeps == 1, "after two captured nodes on one stream the next depends on %zu", ndeps);
    CHECK(cudaEventRecord(fork, s1));
    CHECK(cudaStreamWaitEvent(s2, fork, 0));                 // s2 joins the capture
    CHECK(cudaStreamIsCapturing(s2, &st));
    EXPECT(st == cudaStreamCaptureStatusActive, "s2 status %d", (int) st);
    CHECK(cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice, s2)); // b = 1
    scale<<<1, 128, 0, s2>>>(b, 7, n);                       // b = 7
    inc<<<1, 128, 0, s1>>>(a, n);                            // a = 2, beside the other branch
    CHECK(cudaEventRecord(back, s2));
    CHECK(cudaStreamWaitEvent(s1, back, 0));                 // joined back
    add<<<1, 128, 0, s1>>>(c, a, b, n);                      // c = 9
    CHECK(cudaMemcpyAsync(h, c, bytes, cudaMemcpyDeviceToHost, s1));
    CHECK(cudaLaunchHostFunc(s1, count_call, &host_calls));
    cudaGraph_t g = nullptr;
    CHECK(cudaStreamEndCapture(s1, &g));
    EXPECT(g != nullptr, "no graph");
    CHECK(cudaStreamIsCapturing(s2, &st));
    EXPECT(st == cudaStreamCaptureStatusNone, "s2 still capturing: %d", (int) st);

    // Recorded, not run: a still holds what the first graph left (6), the host function never ran.
    int a0 = 0;
    CHECK(cudaMemcpy(&a0, a, sizeof a0, cudaMemcpyDeviceToHost));
    EXPECT(a0 == 6 && host_calls == 0, "work ran while captured: a[0] = %d, host calls %d", a0, host_calls);
    size_t count = 0;
    CHECK(cudaGraphGetNodes(g, nullptr, &count));
    EXPECT(count == 8, "%zu captured nodes", count);

    cudaGraphExec_t x;
    CHECK(cudaGraphInstantiateWithFlags(&x, g, 0));
    for (int round = 1; round <= 2; round++) {
        memset(h, 0, sizeof h);
        CHECK(cudaGraphLaunch(x, s1));
        CHECK(cudaStreamSynchronize(s1));
        for (int i = 0; i < n; i++) EXPECT(h[i] == 9, "round %d: h[%d] = %d", round, i, h[i]);
        EXPECT(host_calls == round, "host function ran %d times after %d launches", host_calls, round);
    }
    CHECK(cudaGraphExecDestroy(x));
    CHECK(cudaGraphDestroy(g));

    // Relaxed mode permits cudaMalloc during a capture; an empty capture is an empty graph.
    CHECK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeRelaxed));
    int *extra;
    CHECK(cudaMalloc(&extra, 64));
    CHECK(cudaStreamEndCapture(s1, &g));
    CHECK(cudaGraphGetNodes(g, nullptr, &count));
    EXPECT(count == 0, "%zu nodes in an empty capture", count);
    CHECK(cudaGraphInstantiate(&x, g, 0));
    CHECK(cudaGraphLaunch(x, s1));
    CHECK(cudaGraphExecDestroy(x));
    CHECK(cudaGraphDestroy(g));
    CHECK(cudaFree(extra));
    CHECK(cudaEventDestroy(fork));
    CHECK(cudaEventDestroy(back));
    return 0;
}

// The documented order: of the nodes whose dependencies have run, the earliest added runs next.
static char order_log[8];
static void CUDART_CB log_name(void *name) { strncat(order_log, (const char *) name, 1); }

static int order(cudaStream_t s) {
    cudaGraph_t g;
    CHECK(cudaGraphCreate(&g, 0));
    cudaGraphNode_t A, B, C;
    cudaHostNodeParams hp = {log_name, (void *) "A"};
    CHECK(cudaGraphAddHostNode(&A, g, nullptr, 0, &hp));
    hp.userData = (void *) "B";
    CHECK(cudaGraphAddHostNode(&B, g, nullptr, 0, &hp));
    hp.userData = (void *) "C";
    CHECK(cudaGraphAddHostNode(&C, g, nullptr, 0, &hp));
    CHECK(cudaGraphAddDependencies(g, &C, &A, nullptr, 1)); // A after C
    cudaGraphExec_t x;
    CHECK(cudaGraphInstantiate(&x, g, 0));
    CHECK(cudaGraphLaunch(x, s));
    CHECK(cudaGraphLaunch(x, s));
    EXPECT(strcmp(order_log, "BCABCA") == 0, "order %s", order_log);
    CHECK(cudaGraphExecDestroy(x));
    CHECK(cudaGraphDestroy(g));
    return 0;
}

// Copies and memsets of every form captured: a copy node reads its source when the graph runs.
static int captured_copies(unsigned short *d, size_t dpitch, cudaStream_t s) {
    static int in[4] = {1, 2, 3, 4}, out[4];
    static unsigned char rows[2][8];
    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    CHECK(cudaMemcpyToSymbolAsync(sym, in, sizeof in, 0, cudaMemcpyHostToDevice, s));
    CHECK(cudaMemset2DAsync(d, dpitch, 0x11, 8, 2, s));
    cudaPitchedPtr pd = make_cudaPitchedPtr(d, dpitch, 8, 2);
    cudaExtent one = make_cudaExtent(2, 1, 1);
    CHECK(cudaMemset3DAsync(pd, 0x22, one, s));
    CHECK(cudaMemcpy2DAsync(rows, sizeof rows[0], d, dpitch, 8, 2, cudaMemcpyDeviceToHost, s));
    CHECK(cudaMemcpyFromSymbolAsync(out, sym, sizeof out, 0, cudaMemcpyDeviceToHost, s));
    cudaGraph_t g;
    CHECK(cudaStreamEndCapture(s, &g));
    for (int i = 0; i < 4; i++) in[i] = 5 + i;
    cudaGraphExec_t x;
    CHECK(cudaGraphInstantiate(&x, g, 0));
    CHECK(cudaGraphLaunch(x, s));
    CHECK(cudaStreamSynchronize(s));
    for (int i = 0; i < 4; i++) EXPECT(out[i] == 5 + i, "symbol[%d] = %d (the copy read its source early?)", i, out[i]);
    for (int y = 0; y < 2; y++)
        for (int i = 0; i < 8; i++) EXPECT(rows[y][i] == (y == 0 && i < 2 ? 0x22 : 0x11), "rows[%d][%d] = %x", y, i, rows[y][i]);
    CHECK(cudaGraphExecDestroy(x));
    CHECK(cudaGraphDestroy(g));
    return 0;
}

// Capture of fill-then-scale by k into a fresh graph (the same code each time).
static cudaGraph_t capture_scale(int *p, int k, cudaStream_t s, bool extra) {
    cudaGraph_t g = nullptr;
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    cudaMemsetAsync(p, 0, n * sizeof(int), s);
    inc<<<1, 128, 0, s>>>(p, n);
    scale<<<1, 128, 0, s>>>(p, k, n);
    if (extra) inc<<<1, 128, 0, s>>>(p, n);
    cudaStreamEndCapture(s, &g);
    return g;
}

static int expect_all(const int *p, int want, int line) {
    static int h[n];
    CHECK(cudaMemcpy(h, p, sizeof h, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) if (h[i] != want) { printf("FAIL line %d: p[%d] = %d, not %d\n", line, i, h[i], want); return 1; }
    return 0;
}

// Changing an executable graph: a kernel node's arguments, an update from a graph captured
// again, a refused update; and reading and editing a graph: edges, clones, node removal.
static int editing(int *p, cudaStream_t s) {
    cudaGraph_t g = capture_scale(p, 2, s, false);
    EXPECT(g != nullptr, "capture failed");
    cudaGraphExec_t x;
    CHECK(cudaGraphInstantiate(&x, g, 0));
    CHECK(cudaGraphLaunch(x, s));
    if (expect_all(p, 2, __LINE__)) return 1;

    cudaGraphNode_t nodes[3];
    size_t count = 3;
    CHECK(cudaGraphGetNodes(g, nodes, &count));
    cudaKernelNodeParams kp;
    CHECK(cudaGraphKernelNodeGetParams(nodes[2], &kp));
    EXPECT(kp.func == (void *) scale && *(int *) kp.kernelParams[1] == 2, "kernel node parameters");
    int k = 3;
    void *args[] = {kp.kernelParams[0], &k, kp.kernelParams[2]};
    kp.kernelParams = args;
    CHECK(cudaGraphExecKernelNodeSetParams(x, nodes[2], &kp));
    CHECK(cudaGraphLaunch(x, s));
    if (expect_all(p, 3, __LINE__)) return 1;

    cudaGraph_t again = capture_scale(p, 5, s, false);
    cudaGraphExecUpdateResultInfo info;
    CHECK(cudaGraphExecUpdate(x, again, &info));
    EXPECT(info.result == cudaGraphExecUpdateSuccess, "update result %d", (int) info.result);
    CHECK(cudaGraphLaunch(x, s));
    if (expect_all(p, 5, __LINE__)) return 1;
    cudaGraph_t bigger = capture_scale(p, 7, s, true);
    cudaError_t e = cudaGraphExecUpdate(x, bigger, &info);
    cudaGetLastError();
    EXPECT(e == cudaErrorGraphExecUpdateFailure && info.result == cudaGraphExecUpdateErrorTopologyChanged,
           "update to another topology: %s, result %d", cudaGetErrorName(e), (int) info.result);
    CHECK(cudaGraphLaunch(x, s)); // unchanged by the refused update
    if (expect_all(p, 5, __LINE__)) return 1;

    size_t edges = 0;
    CHECK(cudaGraphGetEdges(bigger, nullptr, nullptr, nullptr, &edges));
    EXPECT(edges == 3, "%zu edges in a chain of 4", edges);
    cudaGraph_t clone;
    CHECK(cudaGraphClone(&clone, bigger));
    CHECK(cudaGraphGetNodes(bigger, nodes, &count));
    cudaGraphNode_t twin, deps[2];
    CHECK(cudaGraphNodeFindInClone(&twin, nodes[1], clone));
    size_t ndeps = 2;
    CHECK(cudaGraphNodeGetDependencies(twin, deps, nullptr, &ndeps));
    EXPECT(ndeps == 1, "%zu dependencies of the clone's second node", ndeps);
    CHECK(cudaGraphDestroyNode(deps[0])); // the memset: the inc becomes a root
    CHECK(cudaGraphGetEdges(clone, nullptr, nullptr, nullptr, &edges));
    CHECK(cudaGraphGetRootNodes(clone, nullptr, &count));
    EXPECT(edges == 2 && count == 1, "after removing the first node: %zu edges, %zu roots", edges, count);
    cudaGraphExec_t cx;
    CHECK(cudaGraphInstantiate(&cx, clone, 0));
    CHECK(cudaMemset(p, 0, n * sizeof(int)));
    CHECK(cudaGraphLaunch(cx, s));
    if (expect_all(p, (0 + 1) * 7 + 1, __LINE__)) return 1;
    CHECK(cudaGraphExecDestroy(cx));
    CHECK(cudaGraphExecDestroy(x));
    for (cudaGraph_t d : {g, again, bigger, clone}) CHECK(cudaGraphDestroy(d));
    return 0;
}

// Child graphs: an executable graph launched into a capture, and a graph added as a node.
static int children(int *p, cudaStream_t s) {
    cudaGraph_t inner = capture_scale(p, 2, s, false); // p = 2
    cudaGraphExec_t ix;
    CHECK(cudaGraphInstantiate(&ix, inner, 0));
    cudaGraph_t outer;
    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    CHECK(cudaGraphLaunch(ix, s));
    inc<<<1, 128, 0, s>>>(p, n);                        // p = 3
    CHECK(cudaStreamEndCapture(s, &outer));
    cudaGraphNode_t nodes[2];
    size_t count = 2;
    CHECK(cudaGraphGetNodes(outer, nodes, &count));
    cudaGraphNodeType type;
    CHECK(cudaGraphNodeGetType(nodes[0], &type));
    EXPECT(count == 2 && type == cudaGraphNodeTypeGraph, "%zu nodes, the first of type %d", count, (int) type);
    cudaGraphExec_t ox;
    CHECK(cudaGraphInstantiate(&ox, outer, 0));
    CHECK(cudaGraphLaunch(ox, s));
    if (expect_all(p, 3, __LINE__)) return 1;

    cudaGraph_t parent;
    CHECK(cudaGraphCreate(&parent, 0));
    cudaGraphNode_t child, times;
    CHECK(cudaGraphAddChildGraphNode(&child, parent, nullptr, 0, inner));
    int k = 10, len = n;
    void *args[] = {&p, &k, &len};
    cudaKernelNodeParams kp = {};
    kp.func = (void *) scale; kp.gridDim = dim3(1); kp.blockDim = dim3(128); kp.kernelParams = args;
    CHECK(cudaGraphAddKernelNode(&times, parent, &child, 1, &kp));
    CHECK(cudaGraphDestroy(inner)); // the child was copied when its node was made
    cudaGraphExec_t px;
    CHECK(cudaGraphInstantiate(&px, parent, 0));
    CHECK(cudaGraphLaunch(px, s));
    if (expect_all(p, 20, __LINE__)) return 1;
    for (cudaGraphExec_t x : {ix, ox, px}) CHECK(cudaGraphExecDestroy(x));
    CHECK(cudaGraphDestroy(outer));
    CHECK(cudaGraphDestroy(parent));
    return 0;
}

int main() {
    int *a, *b, *c;
    unsigned short *d;
    size_t dpitch;
    cudaStream_t s1, s2;
    CHECK(cudaMalloc(&a, n * sizeof(int)));
    CHECK(cudaMalloc(&b, n * sizeof(int)));
    CHECK(cudaMalloc(&c, n * sizeof(int)));
    CHECK(cudaMallocPitch(&d, &dpitch, 256 * sizeof(unsigned short), 3));
    CHECK(cudaMemset2D(d, dpitch, 0, 256 * sizeof(unsigned short), 3));
    CHECK(cudaStreamCreate(&s1));
    CHECK(cudaStreamCreate(&s2));
    if (by_hand(a, b, c, d, dpitch, s1)) return 1;
    if (captured(a, b, c, s1, s2)) return 1;
    if (captured_copies(d, dpitch, s1)) return 1;
    if (order(s1)) return 1;
    if (editing(a, s1)) return 1;
    if (children(a, s1)) return 1;
    CHECK(cudaStreamDestroy(s1));
    CHECK(cudaStreamDestroy(s2));
    printf("PASS graphs\n");
    return 0;
}
