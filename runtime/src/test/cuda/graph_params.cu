// Copy, memset and host nodes read back and changed in a graph and in an executable graph,
// copies to and from a __device__ symbol as nodes, and kernel node attributes: a cluster shape
// set on a hand-built kernel node is the shape the kernel sees (above 8 CTAs only with the
// kernel's non-portable opt-in); other attributes are kept,
// copied and cloned; nodes disabled and enabled, edges removed. Results checked as a GPU gives them.
#include <cooperative_groups.h>
#include <cstdio>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

__device__ int table[4];

// Adds 1 to each element, and records the size of the cluster each CTA is in.
__global__ void add1(int *d, int *cluster_sizes) {
    d[blockIdx.x * blockDim.x + threadIdx.x] += 1;
    if (threadIdx.x == 0) cluster_sizes[blockIdx.x] = (int) cg::this_cluster().num_blocks();
}

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
    printf("FAIL %s: %s\n", #x, cudaGetErrorString(e)); return 1; } } while (0)
#define EXPECT(c) do { if (!(c)) { printf("FAIL line %d: %s\n", __LINE__, #c); return 1; } } while (0)

static int host_calls = 0, other_calls = 0;
static void count_host(void *p) { (*(int *) p)++; }

int main() {
    const int N = 64;
    int *d, *sizes;
    CHECK(cudaMalloc(&d, N * sizeof(int)));
    CHECK(cudaMalloc(&sizes, 4 * sizeof(int)));
    int h[N], h2[N], sz[4];

    cudaGraph_t g;
    CHECK(cudaGraphCreate(&g, 0));
    cudaMemsetParams ms = {};
    ms.dst = d;
    ms.value = 7;
    ms.elementSize = 4;
    ms.width = N;
    ms.height = 1;
    cudaGraphNode_t set, kern, copy, host;
    CHECK(cudaGraphAddMemsetNode(&set, g, nullptr, 0, &ms));
    void *args[] = {&d, &sizes};
    cudaKernelNodeParams kp = {};
    kp.func = (void *) add1;
    kp.gridDim = dim3(4);
    kp.blockDim = dim3(16);
    kp.kernelParams = args;
    CHECK(cudaGraphAddKernelNode(&kern, g, &set, 1, &kp));
    cudaKernelNodeAttrValue av = {};
    av.clusterDim.x = 2;
    av.clusterDim.y = 1;
    av.clusterDim.z = 1;
    CHECK(cudaGraphKernelNodeSetAttribute(kern, cudaKernelNodeAttributeClusterDimension, &av));
    CHECK(cudaGraphAddMemcpyNode1D(&copy, g, &kern, 1, h, d, sizeof h, cudaMemcpyDeviceToHost));
    cudaHostNodeParams hp = {count_host, &host_calls};
    CHECK(cudaGraphAddHostNode(&host, g, &copy, 1, &hp));

    // Kernel parameters set again keep the node's cluster shape (an attribute, not a parameter).
    CHECK(cudaGraphKernelNodeSetParams(kern, &kp));
    cudaKernelNodeAttrValue back = {};
    CHECK(cudaGraphKernelNodeGetAttribute(kern, cudaKernelNodeAttributeClusterDimension, &back));
    EXPECT(back.clusterDim.x == 2 && back.clusterDim.y == 1 && back.clusterDim.z == 1);

    cudaGraphExec_t x1;
    CHECK(cudaGraphInstantiate(&x1, g, 0));
    CHECK(cudaGraphLaunch(x1, 0));
    CHECK(cudaStreamSynchronize(0));
    for (int i = 0; i < N; i++) EXPECT(h[i] == 8);
    CHECK(cudaMemcpy(sz, sizes, sizeof sz, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 4; i++) EXPECT(sz[i] == 2);
    EXPECT(host_calls == 1);

    // Parameters read back: the memset's as given, a 1D copy as the 3D copy it is.
    cudaMemsetParams msb = {};
    CHECK(cudaGraphMemsetNodeGetParams(set, &msb));
    EXPECT(msb.dst == d && msb.value == 7 && msb.elementSize == 4 && msb.width == N && msb.height == 1);
    cudaMemcpy3DParms cp = {};
    CHECK(cudaGraphMemcpyNodeGetParams(copy, &cp));
    EXPECT(cp.srcPtr.ptr == d && cp.dstPtr.ptr == h && cp.extent.width == sizeof h && cp.extent.height == 1 && cp.extent.depth == 1);
    EXPECT(cp.kind == cudaMemcpyDeviceToHost);
    cudaHostNodeParams hpb = {};
    CHECK(cudaGraphHostNodeGetParams(host, &hpb));
    EXPECT(hpb.fn == count_host && hpb.userData == &host_calls);

    // The graph's nodes changed: the executable graph made before is not; one made after is.
    ms.value = 20;
    CHECK(cudaGraphMemsetNodeSetParams(set, &ms));
    CHECK(cudaGraphMemcpyNodeSetParams1D(copy, h2, d, sizeof h2, cudaMemcpyDeviceToHost));
    hp.userData = &other_calls;
    CHECK(cudaGraphHostNodeSetParams(host, &hp));
    CHECK(cudaGraphLaunch(x1, 0));
    for (int i = 0; i < N; i++) EXPECT(h[i] == 8);
    EXPECT(host_calls == 2 && other_calls == 0);
    cudaGraphExec_t x2;
    CHECK(cudaGraphInstantiate(&x2, g, 0));
    CHECK(cudaGraphLaunch(x2, 0));
    for (int i = 0; i < N; i++) EXPECT(h2[i] == 21);
    EXPECT(other_calls == 1);

    // The executable graph's own nodes changed: 2-byte elements, a 3D copy into h.
    ms.value = 0x0005;
    ms.elementSize = 2;
    ms.width = 2 * N;
    CHECK(cudaGraphExecMemsetNodeSetParams(x1, set, &ms));
    cudaMemcpy3DParms p3 = {};
    p3.srcPtr = make_cudaPitchedPtr(d, 16 * sizeof(int), 16 * sizeof(int), 4);
    p3.dstPtr = make_cudaPitchedPtr(h, 16 * sizeof(int), 16 * sizeof(int), 4);
    p3.extent = make_cudaExtent(16 * sizeof(int), 4, 1);
    p3.kind = cudaMemcpyDeviceToHost;
    CHECK(cudaGraphExecMemcpyNodeSetParams(x1, copy, &p3));
    CHECK(cudaGraphLaunch(x1, 0));
    for (int i = 0; i < N; i++) EXPECT(h[i] == 0x00050005 + 1);
    EXPECT(cudaGraphExecMemsetNodeSetParams(x1, copy, &ms) == cudaErrorInvalidValue);
    cudaGetLastError();

    // Copies to and from a symbol as nodes.
    cudaGraph_t gs;
    CHECK(cudaGraphCreate(&gs, 0));
    int in[4] = {3, 1, 4, 1}, out[4] = {0, 0, 0, 0};
    cudaGraphNode_t to, from;
    CHECK(cudaGraphAddMemcpyNodeToSymbol(&to, gs, nullptr, 0, table, in, sizeof in, 0, cudaMemcpyHostToDevice));
    CHECK(cudaGraphAddMemcpyNodeFromSymbol(&from, gs, &to, 1, out, table, 2 * sizeof(int), 2 * sizeof(int), cudaMemcpyDeviceToHost));
    EXPECT(cudaGraphAddMemcpyNodeToSymbol(&to, gs, nullptr, 0, table, in, sizeof in, 4, cudaMemcpyHostToDevice) == cudaErrorInvalidValue);
    cudaGetLastError();
    cudaGraphExec_t xs;
    CHECK(cudaGraphInstantiate(&xs, gs, 0));
    CHECK(cudaGraphLaunch(xs, 0));
    EXPECT(out[0] == 4 && out[1] == 1 && out[2] == 0);
    CHECK(cudaGraphExecMemcpyNodeSetParamsFromSymbol(xs, from, out, table, sizeof(int), 0, cudaMemcpyDeviceToHost));
    CHECK(cudaGraphLaunch(xs, 0));
    EXPECT(out[0] == 3);

    // Other attributes: kept, refused where the documentation says, copied and cloned.
    cudaKernelNodeAttrValue pr = {};
    pr.priority = -3;
    CHECK(cudaGraphKernelNodeSetAttribute(kern, cudaKernelNodeAttributePriority, &pr));
    cudaKernelNodeAttrValue w = {};
    w.accessPolicyWindow.base_ptr = d;
    w.accessPolicyWindow.num_bytes = 256;
    w.accessPolicyWindow.hitRatio = 0.5f;
    w.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
    w.accessPolicyWindow.missProp = cudaAccessPropertyPersisting;
    EXPECT(cudaGraphKernelNodeSetAttribute(kern, cudaKernelNodeAttributeAccessPolicyWindow, &w) == cudaErrorInvalidValue);
    cudaGetLastError();
    w.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
    CHECK(cudaGraphKernelNodeSetAttribute(kern, cudaKernelNodeAttributeAccessPolicyWindow, &w));
    EXPECT(cudaGraphKernelNodeSetAttribute(kern, cudaLaunchAttributeProgrammaticStreamSerialization, &pr) == cudaErrorInvalidValue);
    cudaGetLastError();
    av.clusterDim.x = 0;
    EXPECT(cudaGraphKernelNodeSetAttribute(kern, cudaKernelNodeAttributeClusterDimension, &av) == cudaErrorInvalidValue);
    cudaGetLastError();
    EXPECT(cudaGraphKernelNodeSetAttribute(copy, cudaKernelNodeAttributePriority, &pr) == cudaErrorInvalidValue);
    cudaGetLastError();
    cudaGraphNode_t kern2;
    CHECK(cudaGraphAddKernelNode(&kern2, g, &host, 1, &kp));
    CHECK(cudaGraphKernelNodeCopyAttributes(kern2, kern));
    CHECK(cudaGraphKernelNodeGetAttribute(kern2, cudaKernelNodeAttributePriority, &back));
    EXPECT(back.priority == -3);
    CHECK(cudaGraphKernelNodeGetAttribute(kern2, cudaKernelNodeAttributeClusterDimension, &back));
    EXPECT(back.clusterDim.x == 2);
    CHECK(cudaGraphKernelNodeGetAttribute(kern2, cudaKernelNodeAttributeAccessPolicyWindow, &back));
    EXPECT(back.accessPolicyWindow.base_ptr == d && back.accessPolicyWindow.hitRatio == 0.5f);
    cudaGraph_t c;
    cudaGraphNode_t kc;
    CHECK(cudaGraphClone(&c, g));
    CHECK(cudaGraphNodeFindInClone(&kc, kern, c));
    CHECK(cudaGraphKernelNodeGetAttribute(kc, cudaKernelNodeAttributePriority, &back));
    EXPECT(back.priority == -3);

    // A disabled node does nothing until enabled again (kernel, memcpy and memset nodes only);
    // instantiation flags and edges removed.
    unsigned en = 2;
    CHECK(cudaGraphNodeGetEnabled(x1, set, &en));
    EXPECT(en == 1);
    CHECK(cudaGraphNodeSetEnabled(x1, set, 0));
    CHECK(cudaGraphNodeGetEnabled(x1, set, &en));
    EXPECT(en == 0);
    CHECK(cudaGraphLaunch(x1, 0));
    for (int i = 0; i < N; i++) EXPECT(h[i] == 0x00050005 + 2);  // no memset: the kernel added to what was there
    CHECK(cudaGraphNodeSetEnabled(x1, set, 1));
    CHECK(cudaGraphLaunch(x1, 0));
    for (int i = 0; i < N; i++) EXPECT(h[i] == 0x00050005 + 1);
    EXPECT(cudaGraphNodeSetEnabled(x1, host, 0) == cudaErrorInvalidValue);
    cudaGetLastError();
    unsigned long long flags = 7;
    CHECK(cudaGraphExecGetFlags(x1, &flags));
    EXPECT(flags == 0);
    cudaGraphInstantiateParams ip = {};
    ip.flags = cudaGraphInstantiateFlagAutoFreeOnLaunch;
    cudaGraphExec_t xp;
    CHECK(cudaGraphInstantiateWithParams(&xp, gs, &ip));
    EXPECT(ip.result_out == cudaGraphInstantiateSuccess && ip.errNode_out == nullptr);
    CHECK(cudaGraphExecGetFlags(xp, &flags));
    EXPECT(flags == cudaGraphInstantiateFlagAutoFreeOnLaunch);
    // Upload is for cudaGraphInstantiateWithParams only (there: accepted, not reported back); device
    // launch cannot go with auto-free; each refused as documented, with the result named.
    cudaGraphExec_t xu;
    EXPECT(cudaGraphInstantiateWithFlags(&xu, gs, cudaGraphInstantiateFlagUpload) == cudaErrorInvalidValue);
    cudaGetLastError();
    ip.flags = cudaGraphInstantiateFlagAutoFreeOnLaunch | cudaGraphInstantiateFlagDeviceLaunch;
    EXPECT(cudaGraphInstantiateWithParams(&xu, gs, &ip) == cudaErrorInvalidValue);
    EXPECT(ip.result_out == cudaGraphInstantiateError);
    cudaGetLastError();
    ip.flags = cudaGraphInstantiateFlagUpload;
    CHECK(cudaGraphInstantiateWithParams(&xu, gs, &ip));
    CHECK(cudaGraphExecGetFlags(xu, &flags));
    EXPECT(flags == 0);
    CHECK(cudaGraphExecDestroy(xu));
    CHECK(cudaGraphRemoveDependencies(gs, &to, &from, nullptr, 1));
    size_t ndeps = 9;
    CHECK(cudaGraphNodeGetDependencies(from, nullptr, nullptr, &ndeps));
    EXPECT(ndeps == 0);
    EXPECT(cudaGraphRemoveDependencies(gs, &to, &from, nullptr, 1) == cudaErrorInvalidValue);
    cudaGetLastError();
    CHECK(cudaGraphExecDestroy(xp));

    CHECK(cudaGraphExecDestroy(x1));
    CHECK(cudaGraphExecDestroy(x2));
    CHECK(cudaGraphExecDestroy(xs));
    CHECK(cudaGraphDestroy(c));
    CHECK(cudaGraphDestroy(g));
    CHECK(cudaGraphDestroy(gs));

    // A node's cluster of more than 8 CTAs needs the kernel's non-portable opt-in, as a launch
    // does: the graph's launch is refused until it is set, then the 16-CTA cluster runs.
    cudaGraph_t big;
    CHECK(cudaGraphCreate(&big, 0));
    int *d16, *s16, sz16[16];
    CHECK(cudaMalloc(&d16, 16 * 16 * sizeof(int)));
    CHECK(cudaMemset(d16, 0, 16 * 16 * sizeof(int)));
    CHECK(cudaMalloc(&s16, 16 * sizeof(int)));
    void *args16[] = {&d16, &s16};
    cudaKernelNodeParams kp16 = kp;
    kp16.gridDim = dim3(16);
    kp16.kernelParams = args16;
    cudaGraphNode_t k16;
    CHECK(cudaGraphAddKernelNode(&k16, big, nullptr, 0, &kp16));
    av.clusterDim.x = 16;
    av.clusterDim.y = 1;
    av.clusterDim.z = 1;
    CHECK(cudaGraphKernelNodeSetAttribute(k16, cudaKernelNodeAttributeClusterDimension, &av));
    cudaGraphExec_t x16;
    CHECK(cudaGraphInstantiate(&x16, big, 0));
    EXPECT(cudaGraphLaunch(x16, 0) == cudaErrorInvalidClusterSize);
    EXPECT(cudaGetLastError() == cudaErrorInvalidClusterSize);
    CHECK(cudaFuncSetAttribute((void *) add1, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
    CHECK(cudaGraphLaunch(x16, 0));
    CHECK(cudaStreamSynchronize(0));
    CHECK(cudaMemcpy(sz16, s16, sizeof sz16, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 16; i++) EXPECT(sz16[i] == 16);
    CHECK(cudaGraphExecDestroy(x16));
    CHECK(cudaGraphDestroy(big));
    printf("PASS graph_params\n");
    return 0;
}
