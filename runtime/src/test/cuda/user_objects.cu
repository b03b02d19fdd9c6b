// User objects, as a library that hands resources to CUDA graphs uses them (the CUDA C++
// Programming Guide's "CUDA User Objects"): references owned by the caller, moved into a graph or
// retained by it, duplicated by a clone and by an executable graph, one captured into a graph
// through cudaStreamGetCaptureInfo; each destructor runs exactly once, when the last reference
// goes, and not before. Misuse the Runtime API documents is cudaErrorInvalidValue.
#include <cstdio>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
    printf("FAIL line %d %s: %s\n", __LINE__, #x, cudaGetErrorString(e)); return 1; } } while (0)
#define EXPECT(c) do { if (!(c)) { printf("FAIL line %d: %s\n", __LINE__, #c); return 1; } } while (0)

static int destroyed[3];
static void CUDART_CB release_resource(void *p) { destroyed[(int) (size_t) p]++; }

__global__ void touch(int *p) { if (threadIdx.x == 0) *p += 1; }

int main() {
    int *d;
    CHECK(cudaMalloc(&d, sizeof(int)));
    CHECK(cudaMemset(d, 0, sizeof(int)));
    cudaStream_t s;
    CHECK(cudaStreamCreate(&s));

    // 0: the caller's reference moved into a graph; destroying the graph destroys the object.
    cudaUserObject_t a;
    CHECK(cudaUserObjectCreate(&a, (void *) 0, release_resource, 1, cudaUserObjectNoDestructorSync));
    cudaGraph_t g0;
    CHECK(cudaGraphCreate(&g0, 0));
    CHECK(cudaGraphRetainUserObject(g0, a, 1, cudaGraphUserObjectMove));
    EXPECT(destroyed[0] == 0);
    CHECK(cudaGraphDestroy(g0));
    EXPECT(destroyed[0] == 1);

    // 1: retained by a graph, then held by its clone and its executable graph after the caller's
    // reference and both graphs are gone, until the executable graph is destroyed.
    cudaUserObject_t b;
    CHECK(cudaUserObjectCreate(&b, (void *) 1, release_resource, 1, cudaUserObjectNoDestructorSync));
    cudaGraph_t g1, clone;
    CHECK(cudaGraphCreate(&g1, 0));
    cudaKernelNodeParams kp = {};
    void *args[] = {&d};
    kp.func = (void *) touch;
    kp.gridDim = dim3(1);
    kp.blockDim = dim3(32);
    kp.kernelParams = args;
    cudaGraphNode_t node;
    CHECK(cudaGraphAddKernelNode(&node, g1, nullptr, 0, &kp));
    CHECK(cudaGraphRetainUserObject(g1, b, 2, 0));
    CHECK(cudaGraphReleaseUserObject(g1, b, 1));
    cudaGraphExec_t x;
    CHECK(cudaGraphInstantiate(&x, g1, 0));
    CHECK(cudaGraphClone(&clone, g1));
    CHECK(cudaUserObjectRelease(b, 1));
    CHECK(cudaGraphDestroy(g1));
    CHECK(cudaGraphDestroy(clone));
    EXPECT(destroyed[1] == 0);
    CHECK(cudaGraphLaunch(x, s));
    CHECK(cudaStreamSynchronize(s));
    CHECK(cudaGraphExecDestroy(x));
    EXPECT(destroyed[1] == 1);

    // 2: a reference moved into the graph a capture is building.
    cudaUserObject_t c;
    CHECK(cudaUserObjectCreate(&c, (void *) 2, release_resource, 1, cudaUserObjectNoDestructorSync));
    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    touch<<<1, 32, 0, s>>>(d);
    cudaStreamCaptureStatus status;
    unsigned long long id = 0;
    cudaGraph_t building = nullptr;
    const cudaGraphNode_t *deps = nullptr;
    const cudaGraphEdgeData *edges = nullptr;
    size_t ndeps = 0;
    CHECK(cudaStreamGetCaptureInfo(s, &status, &id, &building, &deps, &edges, &ndeps));
    EXPECT(status == cudaStreamCaptureStatusActive && building != nullptr && ndeps == 1);
    CHECK(cudaGraphRetainUserObject(building, c, 1, cudaGraphUserObjectMove));
    cudaGraph_t captured;
    CHECK(cudaStreamEndCapture(s, &captured));
    EXPECT(captured == building);
    CHECK(cudaGraphInstantiate(&x, captured, 0));
    CHECK(cudaGraphDestroy(captured));
    CHECK(cudaGraphLaunch(x, s));
    CHECK(cudaStreamSynchronize(s));
    EXPECT(destroyed[2] == 0);
    CHECK(cudaGraphExecDestroy(x));
    EXPECT(destroyed[2] == 1);
    int h = 0;
    CHECK(cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost));
    EXPECT(h == 2);

    // Documented misuse.
    cudaUserObject_t u;
    EXPECT(cudaUserObjectCreate(&u, nullptr, release_resource, 1, 0) == cudaErrorInvalidValue);
    EXPECT(cudaUserObjectCreate(&u, nullptr, release_resource, 0, cudaUserObjectNoDestructorSync) == cudaErrorInvalidValue);
    CHECK(cudaUserObjectCreate(&u, (void *) 0, release_resource, 1, cudaUserObjectNoDestructorSync));
    EXPECT(cudaUserObjectRetain(u, 0) == cudaErrorInvalidValue);
    CHECK(cudaGraphCreate(&g0, 0));
    EXPECT(cudaGraphReleaseUserObject(g0, u, 1) == cudaErrorInvalidValue);
    EXPECT(cudaGetLastError() == cudaErrorInvalidValue);
    CHECK(cudaGraphDestroy(g0));
    CHECK(cudaUserObjectRelease(u, 1));
    EXPECT(destroyed[0] == 2);
    CHECK(cudaFree(d));
    printf("PASS user_objects\n");
    return 0;
}
