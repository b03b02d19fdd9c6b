// Graph and capture calls given what the CUDA runtime API allows but a careless stand-in trips
// on: null arrays with count pointers, null arguments, an edge to an earlier node before a clone,
// nodes destroyed after instantiation or cloning, a graph being captured into that the program
// tries to destroy, capture dependencies that are not the capture's nodes, a memset row whose
// size overflows, kernel node parameters read twice. Each must give the documented result (or
// cudaErrorInvalidValue) and never touch freed or foreign memory.
#include <cstdint>
#include <cstdio>
#include <cuda_runtime.h>

__global__ void add(int *p, int v) { p[threadIdx.x] += v; }

static int fails = 0;
#define EXPECT_ERR(call, want) do { cudaError_t e_ = (call); if (e_ != (want)) { \
    printf("FAIL line %d: %s gave %s, not %s\n", __LINE__, #call, cudaGetErrorName(e_), cudaGetErrorName(want)); fails++; } \
    cudaGetLastError(); } while (0)
#define EXPECT(c, ...) do { if (!(c)) { printf("FAIL line %d: ", __LINE__); printf(__VA_ARGS__); printf("\n"); fails++; } } while (0)

static void CUDART_CB note(void *order) { int *o = (int *) order; o[o[0] + 1] = 1; o[0]++; }

// A host function that destroys the executable graph whose launch runs it.
static cudaGraphExec_t own_exec;
static cudaError_t own_destroyed = cudaErrorUnknown;
static void CUDART_CB destroy_own_exec(void *) { own_destroyed = cudaGraphExecDestroy(own_exec); }

static int read0(const int *d) {
    int h = 0;
    cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost);
    return h;
}

int main() {
    int *p;
    cudaMalloc(&p, 32 * sizeof(int));
    cudaMemset(p, 0, 32 * sizeof(int));
    cudaStream_t s;
    cudaStreamCreate(&s);
    cudaGraph_t g, c;
    cudaGraphExec_t x;
    cudaGraphNode_t a, b, d, n3[3];
    size_t n;

    // Null arrays with count pointers: the counts; null count pointers: cudaErrorInvalidValue.
    cudaGraphCreate(&g, 0);
    cudaGraphAddEmptyNode(&a, g, nullptr, 0);
    cudaGraphAddEmptyNode(&b, g, &a, 1);
    cudaGraphAddEmptyNode(&d, g, &a, 1);
    n = 99; EXPECT_ERR(cudaGraphGetNodes(g, nullptr, &n), cudaSuccess); EXPECT(n == 3, "%zu nodes", n);
    n = 99; EXPECT_ERR(cudaGraphGetRootNodes(g, nullptr, &n), cudaSuccess); EXPECT(n == 1, "%zu roots", n);
    n = 99; EXPECT_ERR(cudaGraphGetEdges(g, nullptr, nullptr, nullptr, &n), cudaSuccess); EXPECT(n == 2, "%zu edges", n);
    n = 99; EXPECT_ERR(cudaGraphNodeGetDependentNodes(a, nullptr, nullptr, &n), cudaSuccess); EXPECT(n == 2, "%zu dependents", n);
    n = 99; EXPECT_ERR(cudaGraphNodeGetDependencies(b, nullptr, nullptr, &n), cudaSuccess); EXPECT(n == 1, "%zu dependencies", n);
    EXPECT_ERR(cudaGraphGetNodes(g, n3, nullptr), cudaErrorInvalidValue);
    EXPECT_ERR(cudaGraphNodeGetDependencies(b, n3, nullptr, nullptr), cudaErrorInvalidValue);
    EXPECT_ERR(cudaGraphGetNodes(nullptr, nullptr, &n), cudaErrorInvalidValue);
    // A longer array than needed: the rest set to NULL, the count made the real one.
    n3[0] = n3[1] = n3[2] = a; n = 3;
    EXPECT_ERR(cudaGraphNodeGetDependentNodes(a, n3, nullptr, &n), cudaSuccess);
    EXPECT(n == 2 && n3[0] == b && n3[1] == d && n3[2] == nullptr, "dependents %zu: %p %p %p", n, (void *) n3[0], (void *) n3[1], (void *) n3[2]);
    n3[0] = n3[1] = n3[2] = d; n = 3;
    EXPECT_ERR(cudaGraphNodeGetDependencies(b, n3, nullptr, &n), cudaSuccess);
    EXPECT(n == 1 && n3[0] == a && n3[1] == nullptr && n3[2] == nullptr, "dependencies %zu", n);

    // A refused cudaGraphAddDependencies adds none of its edges (an edge twice; a self edge last).
    cudaGraphNode_t from2[2] = {b, b}, to2[2] = {d, d};
    EXPECT_ERR(cudaGraphAddDependencies(g, from2, to2, nullptr, 2), cudaErrorInvalidValue);
    to2[1] = b;
    EXPECT_ERR(cudaGraphAddDependencies(g, from2, to2, nullptr, 2), cudaErrorInvalidValue);
    n = 99; cudaGraphNodeGetDependencies(d, nullptr, nullptr, &n);
    EXPECT(n == 1, "a refused call added edges: %zu dependencies", n);

    // Null arguments elsewhere.
    EXPECT_ERR(cudaGraphCreate(nullptr, 0), cudaErrorInvalidValue);
    EXPECT_ERR(cudaGraphInstantiate(nullptr, g, 0), cudaErrorInvalidValue);
    EXPECT_ERR(cudaGraphInstantiate(&x, nullptr, 0), cudaErrorInvalidValue);
    EXPECT_ERR(cudaGraphLaunch(nullptr, s), cudaErrorInvalidValue);
    EXPECT_ERR(cudaGraphExecDestroy(nullptr), cudaErrorInvalidValue);
    EXPECT_ERR(cudaGraphDestroy(nullptr), cudaErrorInvalidValue);
    EXPECT_ERR(cudaGraphAddEmptyNode(nullptr, g, nullptr, 0), cudaErrorInvalidValue);
    EXPECT_ERR(cudaGraphAddEmptyNode(&a, g, nullptr, 1), cudaErrorInvalidValue);
    EXPECT_ERR(cudaGraphAddChildGraphNode(&a, g, nullptr, 0, nullptr), cudaErrorInvalidValue);
    EXPECT_ERR(cudaGraphAddMemsetNode(&a, g, nullptr, 0, nullptr), cudaErrorInvalidValue);
    EXPECT_ERR(cudaGraphAddMemcpyNode(&a, g, nullptr, 0, nullptr), cudaErrorInvalidValue);
    EXPECT_ERR(cudaGraphAddKernelNode(&a, g, nullptr, 0, nullptr), cudaErrorInvalidValue);
    EXPECT_ERR(cudaGraphAddHostNode(&a, g, nullptr, 0, nullptr), cudaErrorInvalidValue);
    EXPECT_ERR(cudaGraphNodeGetType(a, nullptr), cudaErrorInvalidValue);
    EXPECT_ERR(cudaGraphNodeGetType(nullptr, nullptr), cudaErrorInvalidValue);
    EXPECT_ERR(cudaGraphClone(nullptr, g), cudaErrorInvalidValue);
    EXPECT_ERR(cudaGraphKernelNodeGetParams(a, nullptr), cudaErrorInvalidValue);
    EXPECT_ERR(cudaGraphAddDependencies(g, nullptr, nullptr, nullptr, 1), cudaErrorInvalidValue);
    EXPECT_ERR(cudaStreamIsCapturing(s, nullptr), cudaErrorInvalidValue);
    EXPECT_ERR(cudaStreamEndCapture(s, nullptr), cudaErrorInvalidValue);
    EXPECT_ERR(cudaStreamUpdateCaptureDependencies(s, nullptr, nullptr, 1, 0), cudaErrorInvalidValue);
    EXPECT_ERR(cudaThreadExchangeStreamCaptureMode(nullptr), cudaErrorInvalidValue);
    cudaGraphDestroy(g);

    // An edge from a later node to an earlier one (b was added after a): a clone keeps it.
    cudaGraphCreate(&g, 0);
    cudaGraphAddEmptyNode(&a, g, nullptr, 0);
    cudaGraphAddEmptyNode(&b, g, nullptr, 0);
    EXPECT_ERR(cudaGraphAddDependencies(g, &b, &a, nullptr, 1), cudaSuccess);
    EXPECT_ERR(cudaGraphClone(&c, g), cudaSuccess);
    cudaGraphNode_t ca = nullptr, cb = nullptr, dep = nullptr;
    cudaGraphNodeFindInClone(&ca, a, c);
    cudaGraphNodeFindInClone(&cb, b, c);
    n = 1;
    EXPECT_ERR(cudaGraphNodeGetDependencies(ca, &dep, nullptr, &n), cudaSuccess);
    EXPECT(n == 1 && dep == cb && cb != nullptr, "the clone's edge b -> a");
    cudaGraphDestroy(c);
    cudaGraphDestroy(g);

    // Nodes destroyed after instantiation and after cloning: the executable graph and the clone
    // still know each node by identity, not by where it stood.
    int order[4] = {0, 0, 0, 0};
    cudaGraphCreate(&g, 0);
    cudaGraphNode_t k1, k2;
    int v1 = 1, v2 = 100, v3 = 10000;
    void *args1[] = {&p, &v1}, *args2[] = {&p, &v2}, *args3[] = {&p, &v3};
    cudaKernelNodeParams kp = {};
    kp.func = (void *) add; kp.gridDim = dim3(1); kp.blockDim = dim3(1); kp.kernelParams = args1;
    cudaHostNodeParams hp = {note, order};
    cudaGraphAddHostNode(&a, g, nullptr, 0, &hp);
    cudaGraphAddKernelNode(&k1, g, nullptr, 0, &kp);
    kp.kernelParams = args2;
    cudaGraphAddKernelNode(&k2, g, nullptr, 0, &kp);
    cudaGraphInstantiate(&x, g, 0);
    EXPECT_ERR(cudaGraphClone(&c, g), cudaSuccess);
    EXPECT_ERR(cudaGraphDestroyNode(a), cudaSuccess);
    kp.kernelParams = args3;
    EXPECT_ERR(cudaGraphExecKernelNodeSetParams(x, k2, &kp), cudaSuccess); // k2's own op, not k1's
    EXPECT_ERR(cudaGraphLaunch(x, s), cudaSuccess);
    EXPECT(read0(p) == 1 + 10000, "the executable graph's k2 was set, k1 kept: %d", read0(p));
    cudaGraphNode_t ck2 = nullptr;
    EXPECT_ERR(cudaGraphNodeFindInClone(&ck2, k2, c), cudaSuccess);
    cudaGraphNodeType type = cudaGraphNodeTypeCount;
    cudaGraphNodeGetType(ck2, &type);
    cudaKernelNodeParams got = {};
    cudaGraphKernelNodeGetParams(ck2, &got);
    EXPECT(type == cudaGraphNodeTypeKernel && got.kernelParams != nullptr && *(int *) got.kernelParams[1] == 100,
           "the clone's node of k2 (type %d)", (int) type);
    // ... and the other way: a node of the clone destroyed, the original's nodes still found.
    cudaGraphNode_t ck1 = nullptr;
    cudaGraphNodeFindInClone(&ck1, k1, c);
    EXPECT_ERR(cudaGraphDestroyNode(ck1), cudaSuccess);
    EXPECT_ERR(cudaGraphNodeFindInClone(&ck1, k1, c), cudaErrorInvalidValue);
    EXPECT_ERR(cudaGraphNodeFindInClone(&ck2, k2, c), cudaSuccess);
    cudaGraphNodeGetType(ck2, &type);
    EXPECT(type == cudaGraphNodeTypeKernel, "k2 in the clone after a removal is type %d", (int) type);
    // The node's parameters read twice: the first result stays valid for a set.
    cudaKernelNodeParams first = {}, second = {};
    cudaGraphKernelNodeGetParams(k2, &first);
    cudaGraphKernelNodeGetParams(k2, &second);
    EXPECT_ERR(cudaGraphKernelNodeSetParams(k2, &first), cudaSuccess);
    cudaGraphKernelNodeGetParams(k2, &second);
    EXPECT(*(int *) second.kernelParams[1] == 100, "k2's argument after a set from its own parameters");
    cudaGraphExecDestroy(x);
    cudaGraphDestroy(c);
    cudaGraphDestroy(g);

    // The graph being captured into: nodes may be added to it, but not removed, and it may not be
    // destroyed ("All operations other than destroy and node removal are permitted").
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    add<<<1, 1, 0, s>>>(p, 1);
    cudaStreamCaptureStatus st;
    cudaGraph_t cg = nullptr;
    const cudaGraphNode_t *deps = nullptr;
    size_t ndeps = 0;
    EXPECT_ERR(cudaStreamGetCaptureInfo(s, &st, nullptr, &cg, &deps, nullptr, &ndeps), cudaSuccess);
    EXPECT(cg != nullptr && ndeps == 1, "capture info");
    cudaGraphNode_t last = ndeps == 1 ? deps[0] : nullptr;
    EXPECT_ERR(cudaGraphDestroyNode(last), cudaErrorInvalidValue);
    EXPECT_ERR(cudaGraphDestroy(cg), cudaErrorInvalidValue);
    // Dependencies that are no nodes of the capture's graph: refused, the set unchanged.
    cudaGraph_t other;
    cudaGraphCreate(&other, 0);
    cudaGraphNode_t foreign[3];
    for (int i = 0; i < 3; i++) cudaGraphAddEmptyNode(&foreign[i], other, nullptr, 0);
    EXPECT_ERR(cudaStreamUpdateCaptureDependencies(s, &foreign[2], nullptr, 1, cudaStreamSetCaptureDependencies), cudaErrorInvalidValue);
    EXPECT_ERR(cudaStreamUpdateCaptureDependencies(s, &foreign[2], nullptr, 1, cudaStreamAddCaptureDependencies), cudaErrorInvalidValue);
    // Its own node twice: one dependency.
    cudaGraphNode_t twice[2] = {last, last};
    EXPECT_ERR(cudaStreamUpdateCaptureDependencies(s, twice, nullptr, 2, cudaStreamSetCaptureDependencies), cudaSuccess);
    add<<<1, 1, 0, s>>>(p, 1);
    cudaGraph_t captured = nullptr;
    EXPECT_ERR(cudaStreamEndCapture(s, &captured), cudaSuccess);
    EXPECT(captured == cg, "the graph captured into is the graph returned");
    n = 99;
    cudaGraphGetEdges(captured, nullptr, nullptr, nullptr, &n);
    EXPECT(n == 1, "%zu edges in the captured graph", n);
    EXPECT_ERR(cudaGraphInstantiate(&x, captured, 0), cudaSuccess);
    cudaMemset(p, 0, sizeof(int));
    EXPECT_ERR(cudaGraphLaunch(x, s), cudaSuccess);
    EXPECT(read0(p) == 2, "the captured graph ran %d", read0(p));
    EXPECT_ERR(cudaGraphDestroy(captured), cudaSuccess); // ended: the program's now
    cudaGraphExecDestroy(x);
    cudaGraphDestroy(other);
    // The stream captures again after that.
    EXPECT_ERR(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal), cudaSuccess);
    EXPECT_ERR(cudaStreamEndCapture(s, &captured), cudaSuccess);
    cudaGraphDestroy(captured);

    // A memset node whose row size (width x elementSize) overflows: refused when made.
    cudaGraphCreate(&g, 0);
    cudaMemsetParams ms = {};
    ms.dst = p; ms.value = 7; ms.elementSize = 4; ms.width = SIZE_MAX / 4 + 2; ms.height = 1;
    EXPECT_ERR(cudaGraphAddMemsetNode(&a, g, nullptr, 0, &ms), cudaErrorInvalidValue);
    ms.width = 4; ms.height = SIZE_MAX / 8; ms.pitch = 64;
    EXPECT_ERR(cudaGraphAddMemsetNode(&a, g, nullptr, 0, &ms), cudaErrorInvalidValue);
    cudaGraphDestroy(g);

    // Handles used after they were destroyed: refused, nothing freed twice (a new object made in
    // between may reuse the address; the old handle still names nothing).
    cudaGraphCreate(&g, 0);
    cudaGraphAddEmptyNode(&a, g, nullptr, 0);
    cudaGraphInstantiate(&x, g, 0);
    EXPECT_ERR(cudaGraphExecDestroy(x), cudaSuccess);
    EXPECT_ERR(cudaGraphExecDestroy(x), cudaErrorInvalidValue);
    EXPECT_ERR(cudaGraphLaunch(x, s), cudaErrorInvalidValue);
    EXPECT_ERR(cudaGraphDestroy(g), cudaSuccess);
    EXPECT_ERR(cudaGraphDestroy(g), cudaErrorInvalidValue);
    EXPECT_ERR(cudaGraphNodeGetType(a, &type), cudaErrorInvalidValue); // its nodes went with it
    EXPECT_ERR(cudaGraphAddEmptyNode(&b, g, nullptr, 0), cudaErrorInvalidValue);
    cudaEvent_t ev;
    cudaEventCreate(&ev);
    EXPECT_ERR(cudaEventDestroy(ev), cudaSuccess);
    EXPECT_ERR(cudaEventDestroy(ev), cudaErrorInvalidResourceHandle);
    EXPECT_ERR(cudaEventRecord(ev, s), cudaErrorInvalidResourceHandle);
    cudaStream_t s2;
    cudaStreamCreate(&s2);
    EXPECT_ERR(cudaStreamDestroy(s2), cudaSuccess);
    EXPECT_ERR(cudaStreamDestroy(s2), cudaErrorInvalidResourceHandle);
    EXPECT_ERR(cudaStreamBeginCapture(s2, cudaStreamCaptureModeGlobal), cudaErrorInvalidResourceHandle);
    cudaMemPool_t pool;
    cudaMemPoolProps props = {};
    props.allocType = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = 0;
    cudaMemPoolCreate(&pool, &props);
    EXPECT_ERR(cudaMemPoolDestroy(pool), cudaSuccess);
    EXPECT_ERR(cudaMemPoolDestroy(pool), cudaErrorInvalidValue);
    void *q = nullptr;
    EXPECT_ERR(cudaMallocFromPoolAsync(&q, 16, pool, s), cudaErrorInvalidValue);

    // An executable graph destroyed by a host node of its own launch (CUDA forbids API calls in
    // host functions; still, nothing freed is read): as documented for an in-flight graph, the
    // launch runs to its end and the memory goes then; the handle is gone at once.
    cudaMemset(p, 0, sizeof(int));
    cudaGraphCreate(&g, 0);
    cudaHostNodeParams destroy = {destroy_own_exec, nullptr};
    cudaGraphAddHostNode(&a, g, nullptr, 0, &destroy);
    int v5 = 5;
    void *args5[] = {&p, &v5};
    kp.kernelParams = args5;
    cudaGraphAddKernelNode(&b, g, &a, 1, &kp);
    cudaGraphInstantiate(&own_exec, g, 0);
    EXPECT_ERR(cudaGraphLaunch(own_exec, s), cudaSuccess);
    EXPECT(own_destroyed == cudaSuccess && read0(p) == 5, "destroyed in its launch: %s, %d", cudaGetErrorName(own_destroyed), read0(p));
    EXPECT_ERR(cudaGraphLaunch(own_exec, s), cudaErrorInvalidValue);
    cudaGraphDestroy(g);

    EXPECT_ERR(cudaGetLastError(), cudaSuccess);
    printf(fails ? "FAIL graph_misuse\n" : "PASS graph_misuse\n");
    return fails ? 1 : 0;
}
