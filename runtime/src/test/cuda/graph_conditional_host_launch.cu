// A host node launching a graph from inside a launch (host functions may make no CUDA calls, so
// CUDA gives it no meaning): when the launch it starts would have to wait for conditional handle
// slots held by another launch, it must be refused with cudaErrorNotPermitted, never wait forever.
// 1. One thread: the host node launches a second executable graph of its own graph (same handle).
// 2. Two threads: thread A's launch holds handle a, thread B's holds handle b; both host nodes
//    meet at a barrier, then A's launches a graph using b and B's one using a. Waiting there
//    would be a deadlock between the threads: at least one must be refused, and none may hang.
#include <cstdio>
#include <pthread.h>
#include <thread>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
    printf("FAIL %s: %s\n", #x, cudaGetErrorString(e)); return 1; } } while (0)

__global__ void nothing() {}

struct nested {
    pthread_barrier_t *meet; // null: no meeting
    cudaGraphExec_t target;  // launched from the host node, once
    int calls;
    cudaError_t result;
};

static void host(void *p) {
    nested *n = (nested *) p;
    if (__atomic_fetch_add(&n->calls, 1, __ATOMIC_SEQ_CST) != 0) return; // only the first launch nests
    if (n->meet != nullptr) pthread_barrier_wait(n->meet);
    n->result = cudaGraphLaunch(n->target, 0);
}

// A graph: an IF node on a handle of its own (default 1), a kernel in its body, then a host node.
static int make(cudaGraph_t *g, nested *data) {
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
    k.func = (void *) nothing;
    k.gridDim = dim3(1);
    k.blockDim = dim3(1);
    CHECK(cudaGraphAddKernelNode(&body, p.conditional.phGraph_out[0], nullptr, 0, &k));
    cudaHostNodeParams hp = {host, data};
    CHECK(cudaGraphAddHostNode(&hn, *g, &cond, 1, &hp));
    return 0;
}

static void run(cudaGraphExec_t x, cudaError_t *e) { *e = cudaGraphLaunch(x, 0); }

int main() {
    // 1. One thread.
    nested one = {nullptr, nullptr, 0, cudaSuccess};
    cudaGraph_t g;
    if (make(&g, &one)) return 1;
    cudaGraphExec_t x0, x1;
    CHECK(cudaGraphInstantiate(&x0, g, 0));
    CHECK(cudaGraphInstantiate(&x1, g, 0));
    one.target = x1;
    CHECK(cudaGraphLaunch(x0, 0));
    if (one.result != cudaErrorNotPermitted) {
        printf("FAIL one thread: the nested launch gave %s\n", cudaGetErrorString(one.result));
        return 1;
    }
    (void) cudaGetLastError();

    // 2. Two threads.
    pthread_barrier_t meet;
    pthread_barrier_init(&meet, nullptr, 2);
    nested a = {&meet, nullptr, 0, cudaSuccess}, b = {&meet, nullptr, 0, cudaSuccess};
    cudaGraph_t ga, gb;
    if (make(&ga, &a) || make(&gb, &b)) return 1;
    cudaGraphExec_t xa[2], xb[2];
    CHECK(cudaGraphInstantiate(&xa[0], ga, 0));
    CHECK(cudaGraphInstantiate(&xa[1], ga, 0));
    CHECK(cudaGraphInstantiate(&xb[0], gb, 0));
    CHECK(cudaGraphInstantiate(&xb[1], gb, 0));
    a.target = xb[1]; // thread A's launch holds a's handle and wants b's
    b.target = xa[1];
    cudaError_t ea = cudaErrorUnknown, eb = cudaErrorUnknown;
    std::thread ta(run, xa[0], &ea), tb(run, xb[0], &eb);
    ta.join();
    tb.join();
    (void) cudaGetLastError();
    int refused = (a.result == cudaErrorNotPermitted) + (b.result == cudaErrorNotPermitted);
    int ran = (a.result == cudaSuccess) + (b.result == cudaSuccess);
    if (ea != cudaSuccess || eb != cudaSuccess || refused == 0 || refused + ran != 2) {
        printf("FAIL two threads: launches %s, %s; nested %s, %s\n", cudaGetErrorString(ea), cudaGetErrorString(eb),
               cudaGetErrorString(a.result), cudaGetErrorString(b.result));
        return 1;
    }
    printf("PASS graph_conditional_host_launch\n");
    return 0;
}
