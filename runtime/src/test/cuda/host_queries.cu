// What CUTLASS-style host code asks before and around its launches: occupancy and cluster
// sizes, the kernel's name and attributes, stream priorities, ids and attributes (an access
// policy window), device limits and flags, and a stream callback; each read back as a GPU
// answers it, and a kernel launched on a prioritized stream still computes its result.
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>
#include <cuda_profiler_api.h>

__global__ void scale(float *out, float f) { out[threadIdx.x] = threadIdx.x * f; }

__global__ void __cluster_dims__(2, 1, 1) paired(int *out) { out[blockIdx.x] = blockIdx.x; }

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
    printf("FAIL %s: %s\n", #x, cudaGetErrorString(e)); return 1; } } while (0)
#define EXPECT(c) do { if (!(c)) { printf("FAIL %s\n", #c); return 1; } } while (0)

static int callbacks = 0;
static void CUDART_CB on_done(cudaStream_t, cudaError_t status, void *data) {
    if (status == cudaSuccess && *(float *) data == 6.0f) callbacks++;
}

int main() {
    // Cluster sizes: portable 8, 16 once non-portable sizes are allowed, a required size as is.
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3(16);
    config.blockDim = dim3(128);
    int size = 0;
    CHECK(cudaOccupancyMaxPotentialClusterSize(&size, (void *) scale, &config));
    EXPECT(size == 8);
    CHECK(cudaFuncSetAttribute((void *) scale, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
    CHECK(cudaOccupancyMaxPotentialClusterSize(&size, (void *) scale, &config));
    EXPECT(size == 16);
    cudaFuncAttributes fa;
    CHECK(cudaFuncGetAttributes(&fa, scale));
    EXPECT(fa.nonPortableClusterSizeAllowed == 1);
    CHECK(cudaOccupancyMaxPotentialClusterSize(&size, (void *) paired, &config));
    EXPECT(size == 2);
    CHECK(cudaFuncGetAttributes(&fa, paired));
    EXPECT(fa.requiredClusterWidth == 2 && fa.nonPortableClusterSizeAllowed == 0);
    // cudaFuncSetAttribute, as documented: an attribute that cannot be written or a value out of
    // range is cudaErrorInvalidValue; a compiled-in cluster dimension cannot be set at run time.
    EXPECT(cudaFuncSetAttribute((void *) scale, (cudaFuncAttribute) 4, 1) == cudaErrorInvalidValue); // numRegs
    cudaGetLastError();
    EXPECT(cudaFuncSetAttribute((void *) scale, cudaFuncAttributePreferredSharedMemoryCarveout, 101) == cudaErrorInvalidValue);
    cudaGetLastError();
    CHECK(cudaFuncSetAttribute((void *) scale, cudaFuncAttributePreferredSharedMemoryCarveout, cudaSharedmemCarveoutMaxShared));
    EXPECT(cudaFuncSetAttribute((void *) paired, cudaFuncAttributeRequiredClusterWidth, 4) == cudaErrorNotPermitted);
    cudaGetLastError();
    // Dynamic shared memory left per block for 2 blocks of 128 threads: 114 KiB - 1 KiB reserved.
    size_t dyn = 0;
    CHECK(cudaOccupancyAvailableDynamicSMemPerBlock(&dyn, scale, 2, 128));
    EXPECT(dyn == 113 * 1024);
    CHECK(cudaOccupancyAvailableDynamicSMemPerBlock(&dyn, scale, 1, 128));
    EXPECT(dyn == 227 * 1024);
    int blocks = 0;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, scale, 128, dyn));
    EXPECT(blocks == 1);
    const char *name = nullptr;
    CHECK(cudaFuncGetName(&name, (void *) scale));
    EXPECT(strcmp(name, "_Z5scalePff") == 0);

    // Stream priorities: the range, clamping, the default stream's 0.
    int least = 1, greatest = 1, prio = 1;
    CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    EXPECT(least == 0 && greatest == -5);
    int ps = 0;
    CHECK(cudaDeviceGetAttribute(&ps, cudaDevAttrStreamPrioritiesSupported, 0));
    EXPECT(ps == 1);
    cudaStream_t hi, lo;
    CHECK(cudaStreamCreateWithPriority(&hi, cudaStreamNonBlocking, -100));
    CHECK(cudaStreamCreateWithPriority(&lo, cudaStreamDefault, 3));
    CHECK(cudaStreamGetPriority(hi, &prio));
    EXPECT(prio == greatest);
    CHECK(cudaStreamGetPriority(lo, &prio));
    EXPECT(prio == least);
    CHECK(cudaStreamGetPriority(0, &prio));
    EXPECT(prio == 0);
    unsigned long long id_hi = 0, id_lo = 0, id_again = 0;
    CHECK(cudaStreamGetId(hi, &id_hi));
    CHECK(cudaStreamGetId(lo, &id_lo));
    CHECK(cudaStreamGetId(hi, &id_again));
    EXPECT(id_hi != id_lo && id_hi == id_again);
    int dev = -1;
    CHECK(cudaStreamGetDevice(lo, &dev));
    EXPECT(dev == 0);

    // An access policy window on the stream: kept and read back; a bad one refused.
    float *d = nullptr;
    CHECK(cudaMalloc(&d, 128 * sizeof(float)));
    int maxWindow = 0;
    CHECK(cudaDeviceGetAttribute(&maxWindow, cudaDevAttrMaxAccessPolicyWindowSize, 0));
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    EXPECT(maxWindow == prop.accessPolicyMaxWindowSize && maxWindow > 0);
    cudaStreamAttrValue v = {};
    v.accessPolicyWindow.base_ptr = d;
    v.accessPolicyWindow.num_bytes = 128 * sizeof(float);
    v.accessPolicyWindow.hitRatio = 0.6f;
    v.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
    v.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
    CHECK(cudaStreamSetAttribute(hi, cudaStreamAttributeAccessPolicyWindow, &v));
    cudaStreamAttrValue back = {};
    CHECK(cudaStreamGetAttribute(hi, cudaStreamAttributeAccessPolicyWindow, &back));
    EXPECT(back.accessPolicyWindow.base_ptr == d && back.accessPolicyWindow.num_bytes == 512);
    EXPECT(back.accessPolicyWindow.hitRatio == 0.6f && back.accessPolicyWindow.hitProp == cudaAccessPropertyPersisting);
    v.accessPolicyWindow.hitRatio = 1.5f;
    EXPECT(cudaStreamSetAttribute(hi, cudaStreamAttributeAccessPolicyWindow, &v) == cudaErrorInvalidValue);
    cudaGetLastError();
    CHECK(cudaStreamGetAttribute(hi, cudaStreamAttributeSynchronizationPolicy, &back));
    EXPECT(back.syncPolicy == cudaSyncPolicyAuto);
    v = {};
    v.priority = -2;
    CHECK(cudaStreamSetAttribute(lo, cudaStreamAttributePriority, &v));
    CHECK(cudaStreamGetPriority(lo, &prio));
    EXPECT(prio == -2);
    CHECK(cudaStreamCopyAttributes(lo, hi));
    CHECK(cudaStreamGetAttribute(lo, cudaStreamAttributeAccessPolicyWindow, &back));
    EXPECT(back.accessPolicyWindow.base_ptr == d);
    CHECK(cudaStreamGetPriority(lo, &prio));
    EXPECT(prio == greatest);
    size_t limit = 0;
    CHECK(cudaDeviceGetLimit(&limit, cudaLimitPersistingL2CacheSize));
    EXPECT(limit == 0);
    CHECK(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 4 << 20));
    CHECK(cudaDeviceGetLimit(&limit, cudaLimitPersistingL2CacheSize));
    EXPECT(limit == (4 << 20));
    CHECK(cudaDeviceGetLimit(&limit, cudaLimitStackSize));
    EXPECT(limit == 1024);
    CHECK(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 64 << 20));
    CHECK(cudaDeviceGetLimit(&limit, cudaLimitMallocHeapSize));
    EXPECT(limit == (64 << 20));
    EXPECT(cudaDeviceSetLimit((cudaLimit) 42, 1) == cudaErrorUnsupportedLimit);
    cudaGetLastError();
    CHECK(cudaCtxResetPersistingL2Cache());

    // The kernel on the prioritized stream computes as anywhere, and a callback sees it done.
    float f = 6.0f;
    scale<<<1, 128, 0, hi>>>(d, f);
    CHECK(cudaStreamAddCallback(hi, on_done, &f, 0));
    EXPECT(callbacks == 1);
    float h[128];
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 128; i++) EXPECT(h[i] == i * 6.0f);
    EXPECT(cudaStreamAddCallback(hi, on_done, &f, 1) == cudaErrorInvalidValue);
    cudaGetLastError();

    // Launch attributes: a completion event (made with cudaEventDisableTiming, as documented) is
    // recorded when the grid has ended; PDL serialization and a priority change nothing the
    // result shows; no such id is refused.
    cudaEvent_t done, timed;
    CHECK(cudaEventCreateWithFlags(&done, cudaEventDisableTiming));
    cudaLaunchConfig_t lc = {};
    lc.gridDim = dim3(1);
    lc.blockDim = dim3(128);
    lc.stream = hi;
    cudaLaunchAttribute la[3];
    la[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    la[0].val.programmaticStreamSerializationAllowed = 1;
    la[1].id = cudaLaunchAttributeLaunchCompletionEvent;
    la[1].val.launchCompletionEvent.event = done;
    la[1].val.launchCompletionEvent.flags = 0;
    la[2].id = cudaLaunchAttributePriority;
    la[2].val.priority = -1;
    lc.attrs = la;
    lc.numAttrs = 3;
    CHECK(cudaLaunchKernelEx(&lc, scale, d, 2.0f));
    CHECK(cudaEventQuery(done));
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 128; i++) EXPECT(h[i] == i * 2.0f);
    // Refused before the grid runs (the buffer is not scaled again): a timing event, External
    // record flags on a programmatic event, a graphs-only attribute outside a capture, no such id.
    CHECK(cudaEventCreate(&timed));
    la[1].val.launchCompletionEvent.event = timed;
    EXPECT(cudaLaunchKernelEx(&lc, scale, d, 2.0f) == cudaErrorInvalidValue);
    cudaGetLastError();
    la[1].id = cudaLaunchAttributeProgrammaticEvent;
    la[1].val.programmaticEvent.event = done;
    la[1].val.programmaticEvent.flags = cudaEventRecordExternal;
    la[1].val.programmaticEvent.triggerAtBlockStart = 0;
    EXPECT(cudaLaunchKernelEx(&lc, scale, d, 2.0f) == cudaErrorInvalidValue);
    cudaGetLastError();
    la[1].id = cudaLaunchAttributeDeviceUpdatableKernelNode;
    la[1].val.deviceUpdatableKernelNode.deviceUpdatable = 1;
    EXPECT(cudaLaunchKernelEx(&lc, scale, d, 2.0f) == cudaErrorInvalidValue);
    cudaGetLastError();
    la[0].id = (cudaLaunchAttributeID) 15;
    EXPECT(cudaLaunchKernelEx(&lc, scale, d, 2.0f) == cudaErrorInvalidValue);
    cudaGetLastError();
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 128; i++) EXPECT(h[i] == i * 2.0f);

    // Active clusters, as documented: the configuration's cluster and a kernel's required one
    // must agree; one of them must be given; more than 8 CTAs need non-portable sizes allowed.
    cudaLaunchConfig_t cc = {};
    cc.gridDim = dim3(16);
    cc.blockDim = dim3(128);
    cudaLaunchAttribute ca[1];
    ca[0].id = cudaLaunchAttributeClusterDimension;
    ca[0].val.clusterDim.x = 4;
    ca[0].val.clusterDim.y = 1;
    ca[0].val.clusterDim.z = 1;
    cc.attrs = ca;
    cc.numAttrs = 1;
    int active = 0;
    CHECK(cudaOccupancyMaxActiveClusters(&active, (void *) scale, &cc));
    EXPECT(active == 132 * 16 / 4);
    EXPECT(cudaOccupancyMaxActiveClusters(&active, (void *) paired, &cc) == cudaErrorInvalidClusterSize);
    cudaGetLastError();
    cc.numAttrs = 0;
    CHECK(cudaOccupancyMaxActiveClusters(&active, (void *) paired, &cc));
    EXPECT(active == 132 * 16 / 2);
    EXPECT(cudaOccupancyMaxActiveClusters(&active, (void *) scale, &cc) == cudaErrorInvalidClusterSize);
    cudaGetLastError();
    cc.numAttrs = 1;
    ca[0].val.clusterDim.x = 16;
    CHECK(cudaOccupancyMaxActiveClusters(&active, (void *) scale, &cc)); // non-portable sizes allowed above
    EXPECT(active == 132 * 16 / 16);
    CHECK(cudaFuncSetAttribute((void *) scale, cudaFuncAttributeNonPortableClusterSizeAllowed, 0));
    EXPECT(cudaOccupancyMaxActiveClusters(&active, (void *) scale, &cc) == cudaErrorInvalidClusterSize);
    cudaGetLastError();

    // The device's PCI id names it back; another does not. Managed memory attaches to a stream.
    char bus[32];
    CHECK(cudaDeviceGetPCIBusId(bus, sizeof bus, 0));
    int byBus = -1;
    CHECK(cudaDeviceGetByPCIBusId(&byBus, bus));
    EXPECT(byBus == 0);
    EXPECT(cudaDeviceGetByPCIBusId(&byBus, "0000:3b:00.0") == cudaErrorInvalidDevice);
    cudaGetLastError();
    int chosen = -1;
    cudaDeviceProp want = {};
    want.major = 9;
    CHECK(cudaChooseDevice(&chosen, &want));
    EXPECT(chosen == 0);
    float *m = nullptr;
    CHECK(cudaMallocManaged(&m, 128 * sizeof(float)));
    CHECK(cudaStreamAttachMemAsync(lo, m, 0, cudaMemAttachSingle));
    scale<<<1, 128, 0, lo>>>(m, 1.0f);
    CHECK(cudaStreamSynchronize(lo));
    for (int i = 0; i < 128; i++) EXPECT(m[i] == (float) i);
    EXPECT(cudaStreamAttachMemAsync(lo, d, 0, cudaMemAttachGlobal) == cudaErrorInvalidValue);
    cudaGetLastError();
    CHECK(cudaFree(m));

    unsigned flags = 0;
    CHECK(cudaSetDeviceFlags(cudaDeviceScheduleBlockingSync));
    CHECK(cudaGetDeviceFlags(&flags));
    EXPECT((flags & cudaDeviceScheduleMask) == cudaDeviceScheduleBlockingSync);
    cudaFuncCache cache;
    CHECK(cudaDeviceSetCacheConfig(cudaFuncCachePreferShared));
    CHECK(cudaDeviceGetCacheConfig(&cache));
    EXPECT(cache == cudaFuncCachePreferShared);
    CHECK(cudaProfilerStart());
    CHECK(cudaProfilerStop());
    CHECK(cudaStreamDestroy(hi));
    CHECK(cudaStreamDestroy(lo));
    CHECK(cudaFree(d));
    printf("PASS host_queries\n");
    return 0;
}
