// Conditional graph nodes (CUDA 12.4+): a WHILE loop whose body kernel counts down and sets the
// condition with cudaGraphSetConditional, an IF/ELSE and a SWITCH decided by a kernel, each
// checked against the host's own simulation of the documented semantics; then the documented
// refusals, and, last, a kernel outside the handle's graph setting it (a failed, sticky launch).
#include <cstdio>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
    printf("FAIL %s: %s\n", #x, cudaGetErrorString(e)); return 1; } } while (0)
#define EXPECT(c) do { if (!(c)) { printf("FAIL line %d: %s\n", __LINE__, #c); return 1; } } while (0)

// WHILE body: one step of the loop. The condition stays set while the counter is positive.
__global__ void count_down(cudaGraphConditionalHandle h, int *counter, int *sum) {
    if (threadIdx.x == 0) {
        int c = --*counter;
        *sum += c;
        cudaGraphSetConditional(h, c > 0 ? 1u : 0u);
    }
}

// Sets a condition from a value in device memory.
__global__ void decide(cudaGraphConditionalHandle h, const int *x, unsigned mod) {
    if (threadIdx.x == 0) cudaGraphSetConditional(h, (unsigned) *x % mod);
}

__global__ void add(int *v, int k) { v[threadIdx.x] += k; }

static cudaGraphNode_t conditional(cudaGraph_t g, cudaGraphNode_t *dep, cudaGraphConditionalHandle h,
                                   cudaGraphConditionalNodeType type, unsigned size, cudaGraph_t *bodies, cudaError_t *err) {
    cudaGraphNodeParams p = {};
    p.type = cudaGraphNodeTypeConditional;
    p.conditional.handle = h;
    p.conditional.type = type;
    p.conditional.size = size;
    cudaGraph_t *out = nullptr;
    cudaGraphNode_t n = nullptr;
    *err = cudaGraphAddNode(&n, g, dep, nullptr, dep ? 1 : 0, &p);
    out = p.conditional.phGraph_out;
    for (unsigned i = 0; *err == cudaSuccess && i < size; i++) bodies[i] = out[i];
    return n;
}

static cudaGraphNode_t kernel(cudaGraph_t g, cudaGraphNode_t *dep, void *fn, void **args, int threads) {
    cudaKernelNodeParams k = {};
    k.func = fn;
    k.gridDim = dim3(1);
    k.blockDim = dim3(threads);
    k.kernelParams = args;
    cudaGraphNode_t n = nullptr;
    if (cudaGraphAddKernelNode(&n, g, dep, dep ? 1 : 0, &k) != cudaSuccess) return nullptr;
    return n;
}

// The host's model of a WHILE node whose handle defaults to 1 at each launch.
static void while_reference(int start, int *counter, int *sum) {
    int c = start, s = 0;
    unsigned cond = 1;
    while (cond != 0) { c--; s += c; cond = c > 0; }
    *counter = c;
    *sum = s;
}

int main() {
    int *counter, *sum, *x, *out;
    CHECK(cudaMalloc(&counter, sizeof(int)));
    CHECK(cudaMalloc(&sum, sizeof(int)));
    CHECK(cudaMalloc(&x, sizeof(int)));
    CHECK(cudaMalloc(&out, 32 * sizeof(int)));
    cudaError_t err;

    // ---- WHILE: the default 1 is applied at each launch; the body runs until the kernel sets 0.
    cudaGraph_t g;
    CHECK(cudaGraphCreate(&g, 0));
    cudaGraphConditionalHandle hw;
    CHECK(cudaGraphConditionalHandleCreate(&hw, g, 1, cudaGraphCondAssignDefault));
    cudaGraph_t body[3];
    cudaGraphNode_t nwhile = conditional(g, nullptr, hw, cudaGraphCondTypeWhile, 1, body, &err);
    CHECK(err);
    cudaGraphNodeType t;
    CHECK(cudaGraphNodeGetType(nwhile, &t));
    EXPECT(t == cudaGraphNodeTypeConditional);
    void *wargs[] = {&hw, &counter, &sum};
    EXPECT(kernel(body[0], nullptr, (void *) count_down, wargs, 32) != nullptr);
    cudaGraphExec_t xw;
    CHECK(cudaGraphInstantiate(&xw, g, 0));
    const int starts[] = {5, 1, 0, 12};
    for (int start : starts) {
        int zero = 0, c, s, rc, rs;
        CHECK(cudaMemcpy(counter, &start, sizeof start, cudaMemcpyHostToDevice));
        CHECK(cudaMemcpy(sum, &zero, sizeof zero, cudaMemcpyHostToDevice));
        CHECK(cudaGraphLaunch(xw, 0));
        CHECK(cudaStreamSynchronize(0));
        CHECK(cudaMemcpy(&c, counter, sizeof c, cudaMemcpyDeviceToHost));
        CHECK(cudaMemcpy(&s, sum, sizeof s, cudaMemcpyDeviceToHost));
        while_reference(start, &rc, &rs);
        EXPECT(c == rc && s == rs);
    }
    EXPECT(cudaGraphDestroy(body[0]) == cudaErrorInvalidValue); // CUDA-owned
    cudaGetLastError();

    // ---- IF with ELSE, and SWITCH of 3 bodies (a value of 3 runs none), decided by kernels.
    cudaGraph_t g2;
    CHECK(cudaGraphCreate(&g2, 0));
    cudaGraphConditionalHandle hif, hsw;
    CHECK(cudaGraphConditionalHandleCreate(&hif, g2, 0, 0));
    CHECK(cudaGraphConditionalHandleCreate(&hsw, g2, 0, 0));
    unsigned two = 2, four = 4;
    void *dif[] = {&hif, &x, &two}, *dsw[] = {&hsw, &x, &four};
    cudaGraphNode_t n1 = kernel(g2, nullptr, (void *) decide, dif, 1);
    cudaGraph_t ifb[2], swb[3];
    cudaGraphNode_t nif = conditional(g2, &n1, hif, cudaGraphCondTypeIf, 2, ifb, &err);
    CHECK(err);
    cudaGraphNode_t n2 = kernel(g2, &nif, (void *) decide, dsw, 1);
    conditional(g2, &n2, hsw, cudaGraphCondTypeSwitch, 3, swb, &err);
    CHECK(err);
    int k100 = 100, k1 = 1, ks[3] = {10, 20, 30};
    void *a100[] = {&out, &k100}, *a1[] = {&out, &k1};
    void *as[3][2] = {{&out, &ks[0]}, {&out, &ks[1]}, {&out, &ks[2]}};
    EXPECT(kernel(ifb[0], nullptr, (void *) add, a100, 32) != nullptr);
    EXPECT(kernel(ifb[1], nullptr, (void *) add, a1, 32) != nullptr);
    for (int i = 0; i < 3; i++) {
        cudaGraphNode_t m = kernel(swb[i], nullptr, (void *) add, as[i], 32);
        EXPECT(m != nullptr);
        if (i == 1) { // a memset in a body too: out[31] = 0 before the add
            cudaMemsetParams ms = {};
            ms.dst = out + 31; ms.value = 0; ms.elementSize = 4; ms.width = 1; ms.height = 1;
            cudaGraphNode_t mset;
            CHECK(cudaGraphAddMemsetNode(&mset, swb[i], nullptr, 0, &ms));
            CHECK(cudaGraphAddDependencies(swb[i], &mset, &m, nullptr, 1));
        }
    }
    cudaGraphExec_t x2;
    CHECK(cudaGraphInstantiate(&x2, g2, 0));
    for (int v = 0; v < 8; v++) {
        int dev[32], ref[32];
        for (int i = 0; i < 32; i++) ref[i] = 7 * i;
        CHECK(cudaMemcpy(out, ref, sizeof ref, cudaMemcpyHostToDevice));
        CHECK(cudaMemcpy(x, &v, sizeof v, cudaMemcpyHostToDevice));
        CHECK(cudaGraphLaunch(x2, 0));
        CHECK(cudaStreamSynchronize(0));
        CHECK(cudaMemcpy(dev, out, sizeof dev, cudaMemcpyDeviceToHost));
        for (int i = 0; i < 32; i++) ref[i] += v % 2 ? 100 : 1;           // IF / ELSE
        if (v % 4 == 1) ref[31] = 0;                                     // SWITCH body 1's memset
        if (v % 4 < 3) for (int i = 0; i < 32; i++) ref[i] += ks[v % 4]; // SWITCH; 3: no body
        for (int i = 0; i < 32; i++) EXPECT(dev[i] == ref[i]);
    }

    // ---- Nested: a WHILE whose body, captured with cudaStreamBeginCaptureToGraph, counts down
    // and holds an IF (its own handle, set by the body's kernel) that adds the counter to out[0]
    // when it is odd; the whole graph then runs as a child graph node of another graph, after a
    // kernel node.
    cudaGraph_t g4, wb[1], ib[1];
    CHECK(cudaGraphCreate(&g4, 0));
    cudaGraphConditionalHandle hin, hw2;
    CHECK(cudaGraphConditionalHandleCreate(&hin, g4, 0, 0));
    conditional(g4, nullptr, hw, cudaGraphCondTypeWhile, 1, wb, &err);
    EXPECT(err == cudaErrorInvalidValue); // hw has its node already
    cudaGetLastError();
    CHECK(cudaGraphConditionalHandleCreate(&hw2, g4, 1, cudaGraphCondAssignDefault));
    conditional(g4, nullptr, hw2, cudaGraphCondTypeWhile, 1, wb, &err);
    CHECK(err);
    cudaStream_t s;
    CHECK(cudaStreamCreate(&s));
    CHECK(cudaStreamBeginCaptureToGraph(s, wb[0], nullptr, nullptr, 0, cudaStreamCaptureModeGlobal));
    count_down<<<1, 32, 0, s>>>(hw2, counter, sum);
    unsigned two_again = 2;
    decide<<<1, 1, 0, s>>>(hin, counter, two_again); // condition: counter odd
    cudaGraph_t captured;
    CHECK(cudaStreamEndCapture(s, &captured));
    EXPECT(captured == wb[0]);
    cudaGraphNode_t tips[2];
    size_t ntips = 0;
    CHECK(cudaGraphGetNodes(wb[0], nullptr, &ntips));
    EXPECT(ntips == 2);
    CHECK(cudaGraphGetNodes(wb[0], tips, &ntips));
    conditional(wb[0], &tips[1], hin, cudaGraphCondTypeIf, 1, ib, &err);
    CHECK(err);
    int kodd = 1000;
    void *aodd[] = {&out, &kodd};
    EXPECT(kernel(ib[0], nullptr, (void *) add, aodd, 1) != nullptr);
    cudaGraph_t outer;
    CHECK(cudaGraphCreate(&outer, 0));
    cudaGraphNode_t c0, c1;
    int k5 = 5;
    void *a5[] = {&out, &k5};
    c0 = kernel(outer, nullptr, (void *) add, a5, 1);
    CHECK(cudaGraphAddChildGraphNode(&c1, outer, &c0, 1, g4));
    cudaGraphExec_t x5;
    CHECK(cudaGraphInstantiate(&x5, outer, 0));
    {
        int start = 7, zero = 0, o;
        CHECK(cudaMemcpy(counter, &start, sizeof start, cudaMemcpyHostToDevice));
        CHECK(cudaMemcpy(out, &zero, sizeof zero, cudaMemcpyHostToDevice));
        CHECK(cudaGraphLaunch(x5, s));
        CHECK(cudaStreamSynchronize(s));
        CHECK(cudaMemcpy(&o, out, sizeof o, cudaMemcpyDeviceToHost));
        // Host model: out[0] = 5, then the loop counts 7 down to 0; an odd counter adds 1000.
        int c = start, ref = 5;
        unsigned cond = 1;
        while (cond) { c--; cond = c > 0; if ((unsigned) c % 2) ref += 1000; }
        EXPECT(o == ref);
    }
    CHECK(cudaGraphExecDestroy(x5));
    CHECK(cudaGraphDestroy(outer));
    CHECK(cudaGraphDestroy(g4));
    CHECK(cudaStreamDestroy(s));

    // ---- Refusals, as documented.
    cudaGraphConditionalHandle hbad;
    EXPECT(cudaGraphConditionalHandleCreate(&hbad, g2, 0, 2) == cudaErrorInvalidValue);
    cudaGetLastError();
    cudaGraph_t g3, b3[2];
    CHECK(cudaGraphCreate(&g3, 0));
    cudaGraphConditionalHandle h3;
    CHECK(cudaGraphConditionalHandleCreate(&h3, g3, 0, 0));
    conditional(g3, nullptr, h3, cudaGraphCondTypeWhile, 2, b3, &err); // WHILE has one body
    EXPECT(err == cudaErrorInvalidValue);
    cudaGetLastError();
    conditional(g3, nullptr, h3, cudaGraphCondTypeSwitch, 0xFFFFFFFFu, b3, &err); // a garbage size: no bodies made
    EXPECT(err == cudaErrorInvalidValue);
    cudaGetLastError();
    conditional(g3, nullptr, hif, cudaGraphCondTypeIf, 1, b3, &err); // hif belongs to g2's IF node
    EXPECT(err == cudaErrorInvalidValue);
    cudaGetLastError();
    // An IF whose handle has no default and that no kernel set: its value is undefined.
    conditional(g3, nullptr, h3, cudaGraphCondTypeIf, 1, b3, &err);
    CHECK(err);
    cudaGraphExec_t x3;
    CHECK(cudaGraphInstantiate(&x3, g3, 0));
    EXPECT(cudaGraphLaunch(x3, 0) == cudaErrorIllegalState);
    cudaGetLastError();
    // A host node in a body: not a node type bodies may hold.
    cudaHostNodeParams hp = {};
    hp.fn = [](void *) {};
    cudaGraphNode_t nh;
    CHECK(cudaGraphAddHostNode(&nh, b3[0], nullptr, 0, &hp));
    cudaGraphExec_t x4;
    EXPECT(cudaGraphInstantiate(&x4, g3, 0) == cudaErrorNotSupported);
    cudaGetLastError();
    // External semaphores cannot exist without a GPU driver.
    cudaGraphNodeParams sem = {};
    sem.type = cudaGraphNodeTypeExtSemaphoreSignal;
    cudaGraphNode_t nsem;
    EXPECT(cudaGraphAddNode(&nsem, g3, nullptr, nullptr, 0, &sem) == cudaErrorNotSupported);
    cudaGetLastError();

    CHECK(cudaGraphExecDestroy(xw));
    CHECK(cudaGraphExecDestroy(x2));
    CHECK(cudaGraphExecDestroy(x3));
    CHECK(cudaGraphDestroy(g));
    CHECK(cudaGraphDestroy(g2));
    CHECK(cudaGraphDestroy(g3));

    // ---- Last: a plain launch setting a handle: not part of a launch of its graph.
    count_down<<<1, 32>>>(hw, counter, sum);
    EXPECT(cudaDeviceSynchronize() == cudaErrorLaunchFailure);
    printf("PASS graph_conditional\n");
    return 0;
}
