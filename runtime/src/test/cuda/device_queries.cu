// What a program asks of the device and of a kernel before it launches: properties, attributes,
// function attributes and occupancy (as CUTLASS sizes persistent grids), all consistent with one
// emulated sm_90a device.
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

__global__ void with_tile(float *out) {
    __shared__ float tile[1024];  // 4 KiB of static shared memory
    tile[threadIdx.x] = threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = tile[1023 - threadIdx.x];
}

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
    printf("FAIL %s: %s\n", #x, cudaGetErrorString(e)); return 1; } } while (0)
#define EXPECT(c) do { if (!(c)) { printf("FAIL %s\n", #c); return 1; } } while (0)

int main() {
    int count = 0, dev = -1, v = 0;
    CHECK(cudaGetDeviceCount(&count));
    EXPECT(count == 1);
    CHECK(cudaSetDevice(0));
    CHECK(cudaGetDevice(&dev));
    EXPECT(dev == 0);
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    EXPECT(prop.major == 9 && prop.minor == 0);
    EXPECT(prop.multiProcessorCount == 132);
    EXPECT(prop.warpSize == 32 && prop.maxThreadsPerBlock == 1024);
    EXPECT(prop.sharedMemPerBlockOptin == 227 * 1024);
    EXPECT(prop.clusterLaunch == 1);
    EXPECT(strstr(prop.name, "sm_90a") != nullptr);
    CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrMultiProcessorCount, 0));
    EXPECT(v == prop.multiProcessorCount);
    CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0));
    EXPECT(v == (int) prop.sharedMemPerBlockOptin);
    // Managed memory, pitch and peer queries agree with the properties.
    CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrManagedMemory, 0));
    EXPECT(v == 1 && prop.managedMemory == 1);
    CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrConcurrentManagedAccess, 0));
    EXPECT(v == prop.concurrentManagedAccess);
    CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrMaxPitch, 0));
    EXPECT((size_t) v == prop.memPitch);
    CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrTextureAlignment, 0));
    EXPECT((size_t) v == prop.textureAlignment);
    CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrL2CacheSize, 0));
    EXPECT(v == prop.l2CacheSize);
    CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrUnifiedAddressing, 0));
    EXPECT(v == 1);
    CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrCooperativeLaunch, 0));
    EXPECT(v == prop.cooperativeLaunch);
    int peer = -1;
    CHECK(cudaDeviceCanAccessPeer(&peer, 0, 0));
    EXPECT(peer == 0);
    EXPECT(cudaDeviceCanAccessPeer(&peer, 0, 1) == cudaErrorInvalidDevice);
    cudaGetLastError();
    // CUDA 13 dropped clockRate and the memory clock from cudaDeviceProp: programs (deviceQuery,
    // bandwidth estimates) ask for them as attributes.
    CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrClockRate, 0));
    EXPECT(v == 1755000);
    CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrMemoryClockRate, 0));
    EXPECT(v == 2619000);
    CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrGlobalMemoryBusWidth, 0));
    EXPECT(v == 5120 && prop.memoryBusWidth == 5120);
    CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrAsyncEngineCount, 0));
    EXPECT(v == prop.asyncEngineCount && v > 0);
    CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrHostRegisterSupported, 0));
    EXPECT(v == 1 && prop.hostRegisterSupported == 1);
    CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrCanMapHostMemory, 0));
    EXPECT(v == 1 && prop.canMapHostMemory == 1);
    CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrMaxTexture2DHeight, 0));
    EXPECT(v == 65536 && prop.maxTexture2D[1] == 65536);
    CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrMaxSurface2DLayeredLayers, 0));
    EXPECT(v == prop.maxSurface2DLayered[2]);
    CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrMaxTexture2DLinearPitch, 0));
    EXPECT(v == prop.maxTexture2DLinear[2]);
    CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrSurfaceAlignment, 0));
    EXPECT((size_t) v == prop.surfaceAlignment);
    CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrPciBusId, 0));
    EXPECT(v == prop.pciBusID);
    CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrEccEnabled, 0));
    EXPECT(v == prop.ECCEnabled);
    CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrMemSyncDomainCount, 0));
    EXPECT(v == 4);
    CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrNumaId, 0));
    EXPECT(v == -1 && prop.deviceNumaId == -1);
    CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrMaxSharedMemoryPerMultiprocessor, 0));
    EXPECT((size_t) v == prop.sharedMemPerMultiprocessor);
    // A number that names no attribute (92 is reserved) is an invalid value, not a crash.
    EXPECT(cudaDeviceGetAttribute(&v, (cudaDeviceAttr) 92, 0) == cudaErrorInvalidValue);
    EXPECT(cudaGetLastError() == cudaErrorInvalidValue);
    EXPECT(cudaDeviceGetAttribute(&v, cudaDevAttrWarpSize, 1) == cudaErrorInvalidDevice);
    cudaGetLastError();
    cudaFuncAttributes fa;
    CHECK(cudaFuncGetAttributes(&fa, with_tile));
    EXPECT(fa.sharedSizeBytes == 4096);
    EXPECT(fa.maxThreadsPerBlock == 1024);
    int blocks = 0;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, with_tile, 256, 0));
    EXPECT(blocks == 8);  // 2048 threads per multiprocessor / 256
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, with_tile, 128, 100 * 1024));
    EXPECT(blocks == 2);  // 228 KiB / (4 KiB static + 100 KiB dynamic + 1 KiB reserved)
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3(2);
    config.blockDim = dim3(256);
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeClusterDimension;
    attr[0].val.clusterDim.x = 2;
    attr[0].val.clusterDim.y = 1;
    attr[0].val.clusterDim.z = 1;
    config.attrs = attr;
    config.numAttrs = 1;
    int clusters = 0;
    CHECK(cudaOccupancyMaxActiveClusters(&clusters, with_tile, &config));
    EXPECT(clusters == 132 * 8 / 2);
    printf("PASS device_queries\n");
    return 0;
}
