// A graph built with CUDA 12.2+'s generic node calls (cudaGraphAddNode with cudaGraphNodeParams),
// changed with cudaGraphNodeSetParams and cudaGraphExecNodeSetParams; every result checked on the
// host, as a GPU gives it.
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

__global__ void add(int *v, int k) { v[threadIdx.x] += k; }

static int host_calls = 0;
static void CUDART_CB count_call(void *) { host_calls++; }

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
    printf("FAIL %s: %s\n", #x, cudaGetErrorString(e)); return 1; } } while (0)
#define EXPECT(c) do { if (!(c)) { printf("FAIL line %d: %s\n", __LINE__, #c); return 1; } } while (0)

int main() {
    const int n = 64;
    int *dev, host[n];
    CHECK(cudaMalloc(&dev, n * sizeof(int)));
    cudaGraph_t g;
    CHECK(cudaGraphCreate(&g, 0));

    cudaGraphNodeParams set = {};
    set.type = cudaGraphNodeTypeMemset;
    set.memset.dst = dev;
    set.memset.value = 5;
    set.memset.elementSize = 4;
    set.memset.width = n;
    set.memset.height = 1;
    cudaGraphNode_t nset, nkern, ncopy, nhost, nempty;
    CHECK(cudaGraphAddNode(&nset, g, nullptr, nullptr, 0, &set));

    int k = 3;
    void *args[] = {&dev, &k};
    cudaGraphNodeParams kern = {};
    kern.type = cudaGraphNodeTypeKernel;
    kern.kernel.func = (void *) add;
    kern.kernel.gridDim = dim3(1);
    kern.kernel.blockDim = dim3(n);
    kern.kernel.kernelParams = args;
    CHECK(cudaGraphAddNode(&nkern, g, &nset, nullptr, 1, &kern));

    cudaGraphNodeParams copy = {};
    copy.type = cudaGraphNodeTypeMemcpy;
    copy.memcpy.copyParams.srcPtr = make_cudaPitchedPtr(dev, n * sizeof(int), n, 1);
    copy.memcpy.copyParams.dstPtr = make_cudaPitchedPtr(host, n * sizeof(int), n, 1);
    copy.memcpy.copyParams.extent = make_cudaExtent(n * sizeof(int), 1, 1);
    copy.memcpy.copyParams.kind = cudaMemcpyDeviceToHost;
    CHECK(cudaGraphAddNode(&ncopy, g, &nkern, nullptr, 1, &copy));

    cudaGraphNodeParams hostp = {};
    hostp.type = cudaGraphNodeTypeHost;
    hostp.host.fn = count_call;
    CHECK(cudaGraphAddNode(&nhost, g, &ncopy, nullptr, 1, &hostp));
    cudaGraphNodeParams empty = {};
    empty.type = cudaGraphNodeTypeEmpty;
    CHECK(cudaGraphAddNode(&nempty, g, &nhost, nullptr, 1, &empty));
    cudaGraphNodeType t;
    CHECK(cudaGraphNodeGetType(nkern, &t));
    EXPECT(t == cudaGraphNodeTypeKernel);

    cudaGraphExec_t x;
    CHECK(cudaGraphInstantiate(&x, g, 0));
    CHECK(cudaGraphLaunch(x, 0));
    CHECK(cudaStreamSynchronize(0));
    for (int i = 0; i < n; i++) EXPECT(host[i] == 8);
    EXPECT(host_calls == 1);

    // The executable graph's memset value changes; the graph's kernel increment changes for later instantiations.
    set.memset.value = 100;
    CHECK(cudaGraphExecNodeSetParams(x, nset, &set));
    k = 20;
    CHECK(cudaGraphNodeSetParams(nkern, &kern));
    CHECK(cudaGraphLaunch(x, 0));
    CHECK(cudaStreamSynchronize(0));
    for (int i = 0; i < n; i++) EXPECT(host[i] == 103);
    cudaGraphExec_t x2;
    CHECK(cudaGraphInstantiate(&x2, g, 0));
    CHECK(cudaGraphLaunch(x2, 0));
    CHECK(cudaStreamSynchronize(0));
    for (int i = 0; i < n; i++) EXPECT(host[i] == 25);
    EXPECT(host_calls == 3);

    // A type that is not the node's, and a node type that cannot exist here (graph_conditional.cu).
    EXPECT(cudaGraphNodeSetParams(nkern, &set) == cudaErrorInvalidValue);
    cudaGetLastError();
    cudaGraphNodeParams sem = {};
    sem.type = cudaGraphNodeTypeExtSemaphoreWait;
    cudaGraphNode_t nsem;
    EXPECT(cudaGraphAddNode(&nsem, g, nullptr, nullptr, 0, &sem) == cudaErrorNotSupported);
    cudaGetLastError();

    CHECK(cudaGraphExecDestroy(x));
    CHECK(cudaGraphExecDestroy(x2));
    CHECK(cudaGraphDestroy(g));
    printf("PASS graph_generic\n");
    return 0;
}
