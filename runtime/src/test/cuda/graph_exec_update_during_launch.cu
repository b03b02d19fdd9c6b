// An executable graph changed while a launch of it runs: the change is for later launches only
// ("Already enqueued or running launches ... are not affected", cudaGraphExec*NodeSetParams; the
// same for cudaGraphExecUpdate and cudaGraphNodeSetEnabled here). First a
// host node of the graph changes its own executable graph (cudaGraphExecUpdate, then
// cudaGraphExecKernelNodeSetParams, then cudaGraphNodeSetEnabled, one per launch): each launch
// runs what it started with, the next one the change. Then one thread launches while another
// updates the executable graph back and forth between two graphs (adding 1, adding 1000), one
// update during each launch, between its two kernel nodes: both nodes of each launch must add
// the same amount, and the launches alternate between the two graphs.
#include <atomic>
#include <chrono>
#include <cstdio>
#include <thread>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
    printf("FAIL %s: %s\n", #x, cudaGetErrorString(e)); return 1; } } while (0)

__global__ void add(int *n, int v) { atomicAdd(n, v); }

// ---- a host node changing its own executable graph ------------------------------------------------

struct own { cudaGraphExec_t x; cudaGraph_t to; cudaGraphNode_t k; int *n; int calls; cudaError_t r[3]; };

static void change(void *p) {
    own *o = (own *) p;
    int c = o->calls++;
    if (c == 0) o->r[0] = cudaGraphExecUpdate(o->x, o->to, nullptr); // later launches add 100
    if (c == 1) {
        int v = 1000;
        void *args[] = {&o->n, &v};
        cudaKernelNodeParams k = {};
        k.func = (void *) add;
        k.gridDim = dim3(1);
        k.blockDim = dim3(1);
        k.kernelParams = args;
        o->r[1] = cudaGraphExecKernelNodeSetParams(o->x, o->k, &k); // later launches add 1000
    }
    if (c == 2) o->r[2] = cudaGraphNodeSetEnabled(o->x, o->k, 0); // later launches add nothing
}

// A host node, then a kernel node adding v to *n.
static int host_then_add(cudaGraph_t *g, int *n, int v, own *o, cudaGraphNode_t *k) {
    CHECK(cudaGraphCreate(g, 0));
    cudaGraphNode_t h;
    cudaHostNodeParams hp = {change, o};
    CHECK(cudaGraphAddHostNode(&h, *g, nullptr, 0, &hp));
    void *args[] = {&n, &v};
    cudaKernelNodeParams kp = {};
    kp.func = (void *) add;
    kp.gridDim = dim3(1);
    kp.blockDim = dim3(1);
    kp.kernelParams = args;
    CHECK(cudaGraphAddKernelNode(k, *g, &h, 1, &kp));
    return 0;
}

static int own_graph(int *n) {
    own o = {};
    o.n = n;
    cudaGraph_t g, g2;
    cudaGraphNode_t k, k2;
    if (host_then_add(&g, n, 1, &o, &k) || host_then_add(&g2, n, 100, &o, &k2)) return 1;
    CHECK(cudaGraphInstantiate(&o.x, g, 0));
    o.to = g2;
    o.k = k;
    const int want[] = {1, 100, 1000, 0}; // what launch i adds: each changes only the launches after it
    int before = 0;
    for (int i = 0; i < 4; i++) {
        CHECK(cudaGraphLaunch(o.x, 0));
        int now;
        CHECK(cudaMemcpy(&now, n, sizeof now, cudaMemcpyDeviceToHost));
        if (now - before != want[i]) {
            printf("FAIL launch %d of the self-changing graph added %d, not %d (the change came during it)\n", i, now - before, want[i]);
            return 1;
        }
        before = now;
    }
    for (int i = 0; i < 3; i++) CHECK(o.r[i]);
    CHECK(cudaGraphExecDestroy(o.x));
    CHECK(cudaGraphDestroy(g));
    CHECK(cudaGraphDestroy(g2));
    return 0;
}

// ---- one thread launching, another updating --------------------------------------------------------

static std::atomic<int> asked{0}, updates{0};
static std::atomic<bool> done{false}, late{false};

// Between the two kernel nodes: asks the other thread for one update and waits until it is made.
static void wait_update(void *) {
    int want = ++asked;
    auto end = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (updates.load() < want) {
        if (std::chrono::steady_clock::now() > end) { late = true; return; }
        std::this_thread::yield();
    }
}

// add(p, v) -> host node -> add(q, v)
static int pair(cudaGraph_t *g, int *p, int *q, int v) {
    CHECK(cudaGraphCreate(g, 0));
    void *a1[] = {&p, &v}, *a2[] = {&q, &v};
    cudaKernelNodeParams k = {};
    k.func = (void *) add;
    k.gridDim = dim3(1);
    k.blockDim = dim3(1);
    k.kernelParams = a1;
    cudaGraphNode_t k1, h, k2;
    CHECK(cudaGraphAddKernelNode(&k1, *g, nullptr, 0, &k));
    cudaHostNodeParams hp = {wait_update, nullptr};
    CHECK(cudaGraphAddHostNode(&h, *g, &k1, 1, &hp));
    k.kernelParams = a2;
    CHECK(cudaGraphAddKernelNode(&k2, *g, &h, 1, &k));
    return 0;
}

static int two_threads(int *p, int *q) {
    cudaGraph_t ga, gb;
    if (pair(&ga, p, q, 1) || pair(&gb, p, q, 1000)) return 1;
    cudaGraphExec_t x;
    CHECK(cudaGraphInstantiate(&x, ga, 0));
    cudaError_t failed = cudaSuccess;
    std::thread updater([&] { // one update per request: to gb, back to ga, to gb, ...
        while (!done.load()) {
            if (updates.load() == asked.load()) { std::this_thread::yield(); continue; }
            cudaError_t e = cudaGraphExecUpdate(x, (updates.load() & 1) ? ga : gb, nullptr);
            if (e != cudaSuccess) failed = e;
            updates++;
        }
    });
    // Launch i runs ga (adds 1) for even i, gb (adds 1000) for odd i, both of its kernel nodes:
    // the update during it is the next launch's.
    const int launches = 12;
    cudaError_t le = cudaSuccess;
    int sp = 0, sq = 0, bad = -1, dp = 0, dq = 0;
    for (int i = 0; i < launches && le == cudaSuccess; i++) {
        le = cudaGraphLaunch(x, 0);
        int np = 0, nq = 0;
        if (le == cudaSuccess) le = cudaMemcpy(&np, p, sizeof np, cudaMemcpyDeviceToHost);
        if (le == cudaSuccess) le = cudaMemcpy(&nq, q, sizeof nq, cudaMemcpyDeviceToHost);
        int want = (i & 1) ? 1000 : 1;
        if (le == cudaSuccess && bad < 0 && (np - sp != want || nq - sq != want)) { bad = i; dp = np - sp; dq = nq - sq; }
        sp = np;
        sq = nq;
    }
    done = true;
    updater.join();
    CHECK(le);
    CHECK(failed);
    if (late) { printf("FAIL the updating thread did not update within 10 s\n"); return 1; }
    if (bad >= 0) {
        printf("FAIL launch %d did not run one version of the executable graph: its first node added %d, its second %d, "
               "not %d each\n", bad, dp, dq, (bad & 1) ? 1000 : 1);
        return 1;
    }
    if (updates.load() != launches) { printf("FAIL %d updates, not one per launch\n", updates.load()); return 1; }
    CHECK(cudaGraphExecDestroy(x));
    CHECK(cudaGraphDestroy(ga));
    CHECK(cudaGraphDestroy(gb));
    printf("sums %d %d after %d launches and %d updates\n", sp, sq, launches, updates.load());
    return 0;
}

int main() {
    int *n;
    CHECK(cudaMalloc(&n, 3 * sizeof(int)));
    CHECK(cudaMemset(n, 0, 3 * sizeof(int)));
    if (own_graph(n) || two_threads(n + 1, n + 2)) return 1;
    printf("PASS graph_exec_update_during_launch\n");
    return 0;
}
