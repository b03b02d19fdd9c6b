/*
 * What the one emulated sm_90a device says of itself: cudaDeviceGetAttribute and
 * cudaGetDeviceProperties, both read from one table so that they always agree. The values are an
 * H100 SXM's (CUDA programming guide, compute capability 9.0 limits) where the engine models the
 * same thing or nothing depends on it; where BarrierScope differs they say what it does
 * (docs/runtime.md, "The device").
 */
#include <stdio.h>
#include <string.h>

#include "cudart.h"

/* cudaDeviceAttr (CUDA 13.0 driver_types.h) -> value. Every attribute of the enum is here; its
   reserved numbers (92-94, 96, 122-124, ...) are not attributes. */
static const struct { int attr, value; } attrs[] = {
    {1, 1024}, {2, 1024}, {3, 1024}, {4, 64},          /* MaxThreadsPerBlock, MaxBlockDimX/Y/Z */
    {5, 2147483647}, {6, 65535}, {7, 65535},           /* MaxGridDimX/Y/Z */
    {8, 48 * 1024}, {9, 65536}, {10, 32},              /* MaxSharedMemoryPerBlock, TotalConstantMemory, WarpSize */
    {11, 2147483647}, {12, 65536}, {13, BS_CLOCK_KHZ}, /* MaxPitch, MaxRegistersPerBlock, ClockRate (kHz) */
    {14, 512}, {15, 1}, {16, 132},                     /* TextureAlignment (cudaMallocPitch pads to it), GpuOverlap, MultiProcessorCount */
    {17, 0}, {18, 0},                                  /* KernelExecTimeout (the step limit instead), Integrated */
    {19, 1},                                           /* CanMapHostMemory: pinned host memory is device memory too (memory.c) */
    {20, 0},                                           /* ComputeMode: default */
    {21, 131072}, {22, 131072}, {23, 65536},           /* MaxTexture1DWidth, 2DWidth, 2DHeight */
    {24, 16384}, {25, 16384}, {26, 16384},             /* MaxTexture3DWidth/Height/Depth */
    {27, 32768}, {28, 32768}, {29, 2048},              /* MaxTexture2DLayered Width/Height/Layers */
    {30, 512}, {31, 1},                                /* SurfaceAlignment, ConcurrentKernels (they still run in turn) */
    {32, 1}, {33, 0}, {34, 0}, {35, 0},                /* EccEnabled, PciBusId, PciDeviceId (no slot: "0000:00:00.0"), TccDriver */
    {36, 2619000}, {37, 5120}, {38, 50 * 1024 * 1024}, /* MemoryClockRate (kHz), GlobalMemoryBusWidth, L2CacheSize */
    {39, 2048}, {40, 3}, {41, 1},                      /* MaxThreadsPerMultiProcessor, AsyncEngineCount (copies still run in turn), UnifiedAddressing */
    {42, 32768}, {43, 2048},                           /* MaxTexture1DLayered Width/Layers */
    {45, 32768}, {46, 32768},                          /* MaxTexture2DGather Width/Height */
    {47, 8192}, {48, 8192}, {49, 32768},               /* MaxTexture3D...Alt */
    {50, 0}, {51, 32},                                 /* PciDomainId, TexturePitchAlignment */
    {52, 32768}, {53, 32768}, {54, 2046},              /* MaxTextureCubemap, ...Layered Width/Layers */
    {55, 32768}, {56, 131072}, {57, 65536},            /* MaxSurface1DWidth, 2DWidth, 2DHeight */
    {58, 16384}, {59, 16384}, {60, 16384},             /* MaxSurface3D */
    {61, 32768}, {62, 2048},                           /* MaxSurface1DLayered */
    {63, 32768}, {64, 32768}, {65, 2048},              /* MaxSurface2DLayered */
    {66, 32768}, {67, 32768}, {68, 2046},              /* MaxSurfaceCubemap, ...Layered */
    {69, 268435456},                                   /* MaxTexture1DLinearWidth */
    {70, 131072}, {71, 65000}, {72, 2097120},          /* MaxTexture2DLinear Width/Height/Pitch */
    {73, 32768}, {74, 32768},                          /* MaxTexture2DMipmapped Width/Height */
    {75, 9}, {76, 0}, {77, 32768},                     /* ComputeCapabilityMajor/Minor, MaxTexture1DMipmappedWidth */
    {78, 1}, {79, 1}, {80, 1},                         /* StreamPrioritiesSupported (queries.c), Global/LocalL1CacheSupported */
    {81, 228 * 1024}, {82, 65536},                     /* MaxSharedMemoryPerMultiprocessor, MaxRegistersPerMultiprocessor */
    {83, 1}, {84, 0}, {85, 0},                         /* ManagedMemory (managed.c), IsMultiGpuBoard, MultiGpuBoardGroupID */
    {86, 0}, {87, 2},                                  /* HostNativeAtomicSupported, SingleToDoublePrecisionPerfRatio */
    {88, 0},                                           /* PageableMemoryAccess: a kernel cannot read malloc'd memory */
    {89, 1},                                           /* ConcurrentManagedAccess (launches end before the host goes on) */
    {90, 1},                                           /* ComputePreemptionSupported */
    {91, 1},                                           /* CanUseHostPointerForRegisteredMem: registered memory is reached at its host pointer */
    {95, 1}, {97, 227 * 1024},                         /* CooperativeLaunch, MaxSharedMemoryPerBlockOptin */
    {98, 0}, {99, 1},                                  /* CanFlushRemoteWrites, HostRegisterSupported (registered memory is mapped for kernels) */
    {100, 0}, {101, 0},                                /* PageableMemoryAccessUsesHostPageTables, DirectManagedMemAccessFromHost */
    {106, 32},                                         /* MaxBlocksPerMultiprocessor */
    {108, 0},                                          /* MaxPersistingL2CacheSize: no L2 to set aside */
    {109, 134213632}, {111, 1024},                     /* MaxAccessPolicyWindowSize (kept, not modelled), ReservedSharedMemoryPerBlock */
    {112, 0}, {113, 1}, {114, 0},                      /* SparseCudaArraySupported, HostRegisterReadOnlySupported, TimelineSemaphoreInterop */
    {115, 1},                                          /* MemoryPoolsSupported (pool.c) */
    {116, 0}, {117, 0}, {118, 0},                      /* GPUDirectRDMA: none */
    {119, 0},                                          /* MemoryPoolSupportedHandleTypes: no shareable handles */
    {120, 1}, {121, 0},                                /* ClusterLaunch, DeferredMappingCudaArraySupported */
    {125, 1}, {126, 4},                                /* IpcEventSupport (ipc.c), MemSyncDomainCount */
    {130, 0}, {131, -1}, {133, 0}, {134, -1},          /* NumaConfig (none), NumaId, MpsEnabled, HostNumaId */
    {135, 0}, {138, 0}, {139, 0}, {140, 0},            /* D3D12/Vulkan CIG, GpuPciDeviceId, GpuPciSubsystemId */
    {142, 0}, {143, 0}, {144, 0}, {147, 0},            /* host NUMA/host memory pools, partial host atomics */
};

static int lookup(int attr, int *v) {
    for (size_t i = 0; i < sizeof attrs / sizeof attrs[0]; i++) {
        if (attrs[i].attr == attr) {
            *v = attrs[i].value;
            return 1;
        }
    }
    return 0;
}

/* "cudaErrorInvalidValue" for a number that names no attribute, as the runtime answers it. */
int cudaDeviceGetAttribute(int *value, int attr, int device) {
    if (value == NULL) return bs_set(cudaErrorInvalidValue);
    if (device != 0) return bs_set(cudaErrorInvalidDevice);
    if (!lookup(attr, value)) {
        char why[80];
        snprintf(why, sizeof why, "%d is no cudaDeviceAttr of CUDA 13.0", attr);
        bs_say("cudaDeviceGetAttribute", cudaErrorInvalidValue, why);
        return bs_set(cudaErrorInvalidValue);
    }
    return cudaSuccess;
}

/* struct cudaDeviceProp of CUDA 13 (1,008 bytes): each field's offset (from its
   cuda_runtime_api.h, checked with offsetof) and the attribute it reports; 8-byte fields are size_t. */
static const struct { unsigned short off, attr, wide; } fields[] = {
    {296, 8, 1}, {304, 12, 0}, {308, 10, 0}, {312, 11, 1}, {320, 1, 0},
    {324, 2, 0}, {328, 3, 0}, {332, 4, 0}, {336, 5, 0}, {340, 6, 0}, {344, 7, 0},
    {352, 9, 1}, {360, 75, 0}, {364, 76, 0}, {368, 14, 1}, {376, 51, 1}, {384, 16, 0},
    {388, 18, 0}, {392, 19, 0},
    {396, 21, 0}, {400, 77, 0}, {404, 22, 0}, {408, 23, 0}, {412, 73, 0}, {416, 74, 0},
    {420, 70, 0}, {424, 71, 0}, {428, 72, 0}, {432, 45, 0}, {436, 46, 0},
    {440, 24, 0}, {444, 25, 0}, {448, 26, 0}, {452, 47, 0}, {456, 48, 0}, {460, 49, 0},
    {464, 52, 0}, {468, 42, 0}, {472, 43, 0}, {476, 27, 0}, {480, 28, 0}, {484, 29, 0},
    {488, 53, 0}, {492, 54, 0}, {496, 55, 0}, {500, 56, 0}, {504, 57, 0},
    {508, 58, 0}, {512, 59, 0}, {516, 60, 0}, {520, 61, 0}, {524, 62, 0},
    {528, 63, 0}, {532, 64, 0}, {536, 65, 0}, {540, 66, 0}, {544, 67, 0}, {548, 68, 0},
    {552, 30, 1}, {560, 31, 0}, {564, 32, 0}, {568, 33, 0}, {572, 34, 0}, {576, 50, 0},
    {580, 35, 0}, {584, 40, 0}, {588, 41, 0}, {592, 37, 0}, {596, 38, 0}, {600, 108, 0},
    {604, 39, 0}, {608, 78, 0}, {612, 79, 0}, {616, 80, 0}, {624, 81, 1}, {632, 82, 0},
    {636, 83, 0}, {640, 84, 0}, {644, 85, 0}, {648, 86, 0}, {652, 88, 0}, {656, 89, 0},
    {660, 90, 0}, {664, 91, 0}, {668, 95, 0}, {672, 97, 1}, {680, 100, 0}, {684, 101, 0},
    {688, 106, 0}, {692, 109, 0}, {696, 111, 1}, {704, 99, 0}, {708, 112, 0}, {712, 113, 0},
    {716, 114, 0}, {720, 115, 0}, {724, 116, 0}, {728, 117, 0}, {732, 118, 0}, {736, 119, 0},
    {740, 121, 0}, {744, 125, 0}, {748, 120, 0}, {756, 130, 0}, {760, 131, 0}, {764, 133, 0},
    {768, 134, 0}, {772, 139, 0}, {776, 140, 0}, {780, 143, 0},
};

/* The rest (uuid, luid, unifiedFunctionPointers, reserved) zero; totalGlobalMem the device budget. */
int cudaGetDeviceProperties(void *prop, int device) {
    if (prop == NULL) return bs_set(cudaErrorInvalidValue);
    if (device != 0) return bs_set(cudaErrorInvalidDevice);
    unsigned char *p = prop;
    memset(p, 0, 1008);
    strcpy((char *) p, "BarrierScope emulated sm_90a");
    uint64_t total = 1ull << 30;
    memcpy(p + 288, &total, 8);
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        int v = 0;
        lookup(fields[i].attr, &v);
        if (fields[i].wide) {
            uint64_t w = (uint64_t) (uint32_t) v;
            memcpy(p + fields[i].off, &w, 8);
        } else {
            memcpy(p + fields[i].off, &v, 4);
        }
    }
    return cudaSuccess;
}
