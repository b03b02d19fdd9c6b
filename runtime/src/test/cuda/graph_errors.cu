// Stream capture and graph errors as the CUDA runtime documents them: calls that would wait for
// or conflict with captured work fail and invalidate the capture, a fork not joined back, a
// capture ended on the wrong stream, waits across the capture boundary, bad graph arguments, a
// cycle; last, a graph whose kernel faults stops at that node and the error is sticky.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void inc(int *p) { p[threadIdx.x] += 1; }
static void host_only() {}
static void CUDART_CB count_call(void *counter) { ++*(int *) counter; }

static int fails = 0;
#define EXPECT_ERR(call, want) do { cudaError_t e_ = (call); if (e_ != (want)) { \
    printf("FAIL line %d: %s gave %s, not %s\n", __LINE__, #call, cudaGetErrorName(e_), cudaGetErrorName(want)); fails++; } \
    cudaGetLastError(); } while (0)
#define EXPECT(c, ...) do { if (!(c)) { printf("FAIL line %d: ", __LINE__); printf(__VA_ARGS__); printf("\n"); fails++; } } while (0)

static cudaStreamCaptureStatus status(cudaStream_t s) {
    cudaStreamCaptureStatus st = cudaStreamCaptureStatusNone;
    cudaStreamIsCapturing(s, &st);
    return st;
}

// A capture that an error invalidated: it must still be ended, and gives no graph.
static void expect_invalidated_end(cudaStream_t s, int line) {
    cudaGraph_t g = (cudaGraph_t) 0x1;
    cudaError_t e = cudaStreamEndCapture(s, &g);
    if (e != cudaErrorStreamCaptureInvalidated || g != nullptr) {
        printf("FAIL line %d: end of an invalidated capture gave %s, graph %p\n", line, cudaGetErrorName(e), (void *) g);
        fails++;
    }
    cudaGetLastError();
    if (status(s) != cudaStreamCaptureStatusNone) { printf("FAIL line %d: still capturing\n", line); fails++; }
}

int main() {
    int *p;
    cudaMalloc(&p, 32 * sizeof(int));
    cudaMemset(p, 0, 32 * sizeof(int));
    cudaStream_t s1, s2;
    cudaStreamCreate(&s1);
    cudaStreamCreate(&s2);
    cudaEvent_t e1, e2;
    cudaEventCreate(&e1);
    cudaEventCreate(&e2);
    cudaGraph_t g;

    // The legacy default stream cannot capture.
    EXPECT_ERR(cudaStreamBeginCapture(0, cudaStreamCaptureModeGlobal), cudaErrorStreamCaptureUnsupported);

    // Synchronizing the capturing stream: refused, the capture invalidated; later work on it too.
    EXPECT_ERR(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal), cudaSuccess);
    EXPECT_ERR(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal), cudaErrorInvalidValue); // already capturing
    inc<<<1, 32, 0, s1>>>(p);
    EXPECT_ERR(cudaGetLastError(), cudaSuccess);
    EXPECT_ERR(cudaStreamSynchronize(s1), cudaErrorStreamCaptureUnsupported);
    EXPECT(status(s1) == cudaStreamCaptureStatusInvalidated, "status %d after a sync", (int) status(s1));
    inc<<<1, 32, 0, s1>>>(p);
    EXPECT_ERR(cudaGetLastError(), cudaErrorStreamCaptureInvalidated);
    expect_invalidated_end(s1, __LINE__);

    // cudaMalloc is "potentially unsafe" in global mode; cudaDeviceSynchronize always conflicts.
    cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal);
    int *q = nullptr;
    EXPECT_ERR(cudaMalloc(&q, 16), cudaErrorStreamCaptureUnsupported);
    expect_invalidated_end(s1, __LINE__);
    cudaStreamBeginCapture(s1, cudaStreamCaptureModeRelaxed);
    EXPECT_ERR(cudaDeviceSynchronize(), cudaErrorStreamCaptureUnsupported);
    expect_invalidated_end(s1, __LINE__);

    // Work on the legacy stream while a blocking stream captures.
    cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal);
    inc<<<1, 32>>>(p);
    EXPECT_ERR(cudaGetLastError(), cudaErrorStreamCaptureImplicit);
    expect_invalidated_end(s1, __LINE__);

    // A fork that is not joined back.
    cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal);
    cudaEventRecord(e1, s1);
    cudaStreamWaitEvent(s2, e1, 0);
    inc<<<1, 32, 0, s2>>>(p);
    g = (cudaGraph_t) 0x1;
    EXPECT_ERR(cudaStreamEndCapture(s1, &g), cudaErrorStreamCaptureUnjoined);
    EXPECT(g == nullptr, "a graph from an unjoined capture");
    EXPECT(status(s2) == cudaStreamCaptureStatusNone, "the forked stream still captures");

    // Ended on a stream that joined rather than the one that began it.
    cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal);
    cudaEventRecord(e1, s1);
    cudaStreamWaitEvent(s2, e1, 0);
    EXPECT_ERR(cudaStreamEndCapture(s2, &g), cudaErrorStreamCaptureUnmatched);
    expect_invalidated_end(s1, __LINE__);
    EXPECT_ERR(cudaStreamEndCapture(s1, &g), cudaErrorIllegalState); // not capturing

    // Waiting on an event recorded outside the capture; querying one recorded inside it.
    cudaEventRecord(e2, s2);
    cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal);
    EXPECT_ERR(cudaStreamWaitEvent(s1, e2, 0), cudaErrorStreamCaptureIsolation);
    expect_invalidated_end(s1, __LINE__);
    cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal);
    cudaEventRecord(e1, s1);
    EXPECT_ERR(cudaEventQuery(e1), cudaErrorCapturedEvent);
    EXPECT_ERR(cudaStreamEndCapture(s1, &g), cudaSuccess);
    cudaGraphDestroy(g);

    // Graph arguments.
    EXPECT_ERR(cudaGraphCreate(&g, 1), cudaErrorInvalidValue);
    cudaGraph_t other;
    cudaGraphCreate(&g, 0);
    cudaGraphCreate(&other, 0);
    cudaGraphNode_t x, y, z, foreign;
    cudaMemsetParams ms = {};
    ms.dst = p; ms.value = 1; ms.elementSize = 3; ms.width = 4; ms.height = 1;
    EXPECT_ERR(cudaGraphAddMemsetNode(&x, g, nullptr, 0, &ms), cudaErrorInvalidValue);
    cudaGraphAddEmptyNode(&foreign, other, nullptr, 0);
    EXPECT_ERR(cudaGraphAddEmptyNode(&x, g, &foreign, 1), cudaErrorInvalidValue);
    cudaGraphAddEmptyNode(&x, g, nullptr, 0);
    cudaGraphAddEmptyNode(&y, g, &x, 1);
    EXPECT_ERR(cudaGraphAddDependencies(g, &x, &y, nullptr, 1), cudaErrorInvalidValue); // already there
    EXPECT_ERR(cudaGraphAddDependencies(g, &x, &x, nullptr, 1), cudaErrorInvalidValue); // to itself
    void *noargs[1] = {nullptr};
    cudaKernelNodeParams kp = {};
    kp.func = (void *) host_only; kp.gridDim = dim3(1); kp.blockDim = dim3(32); kp.kernelParams = noargs;
    EXPECT_ERR(cudaGraphAddKernelNode(&z, g, nullptr, 0, &kp), cudaErrorInvalidDeviceFunction);
    cudaGraphExec_t exec;
    EXPECT_ERR(cudaGraphAddDependencies(g, &y, &x, nullptr, 1), cudaSuccess); // a cycle: x -> y -> x
    EXPECT_ERR(cudaGraphInstantiate(&exec, g, 0), cudaErrorInvalidValue);
    cudaGraphDestroy(g);
    cudaGraphDestroy(other);

    // A kernel node that faults: the launch stops there (the host node after it never runs) and
    // the error is sticky, as for any failed launch.
    int calls = 0;
    int *bad = p + (1 << 24);
    cudaGraphCreate(&g, 0);
    void *args[] = {&bad};
    kp.func = (void *) inc; kp.kernelParams = args;
    cudaGraphAddKernelNode(&x, g, nullptr, 0, &kp);
    cudaHostNodeParams hp = {count_call, &calls};
    cudaGraphAddHostNode(&y, g, &x, 1, &hp);
    cudaGraphInstantiate(&exec, g, 0);
    EXPECT_ERR(cudaGraphLaunch(exec, s1), cudaErrorIllegalAddress);
    EXPECT(calls == 0, "the host node after the faulting kernel ran");
    EXPECT_ERR(cudaStreamSynchronize(s1), cudaErrorIllegalAddress);

    printf(fails ? "FAIL graph_errors\n" : "PASS graph_errors\n");
    return fails ? 1 : 0;
}
