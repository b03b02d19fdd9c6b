/*
 * The device, its properties and error names. Streams, events and stream capture: streams.c.
 * Every launch adds its virtual cycles here; event times are read from them, not wall time.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cudart.h"

/* One emulated sm_90a device; its clock turns virtual cycles into event milliseconds. */
#define CLOCK_KHZ 1755000ull

static pthread_mutex_t cycles_lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t cycles;

void bs_add_cycles(uint64_t c) {
    pthread_mutex_lock(&cycles_lock);
    cycles += c;
    pthread_mutex_unlock(&cycles_lock);
}

uint64_t bs_cycles(void) {
    pthread_mutex_lock(&cycles_lock);
    uint64_t c = cycles;
    pthread_mutex_unlock(&cycles_lock);
    return c;
}

int cudaGetDeviceCount(int *count) {
    if (count == NULL) return bs_set(cudaErrorInvalidValue);
    *count = 1;
    return cudaSuccess;
}

int cudaSetDevice(int device) { return device == 0 ? cudaSuccess : bs_set(cudaErrorInvalidDevice); }

int cudaGetDevice(int *device) {
    if (device == NULL) return bs_set(cudaErrorInvalidValue);
    *device = 0;
    return cudaSuccess;
}

int cudaFree(void *);
int cudaInitDevice(int device, unsigned flags, unsigned dflags) { (void) flags; (void) dflags; return cudaSetDevice(device); }
int cudaDeviceReset(void) { BS_STICKY(); return cudaSuccess; } /* the sticky error outlives it: "the process must be terminated" */
int cudaFuncSetCacheConfig(const void *func, int config) { (void) func; (void) config; return cudaSuccess; }

int cudaDriverGetVersion(int *v) { if (v == NULL) return bs_set(cudaErrorInvalidValue); *v = 13000; return cudaSuccess; }
int cudaRuntimeGetVersion(int *v) { if (v == NULL) return bs_set(cudaErrorInvalidValue); *v = 13000; return cudaSuccess; }

/* cudaDeviceAttr values (driver_types.h) and what the emulated H100-like device answers. */
int cudaDeviceGetAttribute(int *value, int attr, int device) {
    if (value == NULL || device != 0) return bs_set(device != 0 ? cudaErrorInvalidDevice : cudaErrorInvalidValue);
    int v;
    switch (attr) {
    case 1: v = 1024; break;              /* MaxThreadsPerBlock */
    case 2: case 3: v = 1024; break;      /* MaxBlockDimX/Y */
    case 4: v = 64; break;                /* MaxBlockDimZ */
    case 5: v = 2147483647; break;        /* MaxGridDimX */
    case 6: case 7: v = 65535; break;     /* MaxGridDimY/Z */
    case 8: v = 48 * 1024; break;         /* MaxSharedMemoryPerBlock */
    case 9: v = 65536; break;             /* TotalConstantMemory */
    case 10: v = 32; break;               /* WarpSize */
    case 12: v = 65536; break;            /* MaxRegistersPerBlock */
    case 13: v = (int) CLOCK_KHZ; break;  /* ClockRate */
    case 16: v = 132; break;              /* MultiProcessorCount */
    case 75: v = 9; break;                /* ComputeCapabilityMajor */
    case 76: v = 0; break;                /* ComputeCapabilityMinor */
    case 81: v = 228 * 1024; break;       /* MaxSharedMemoryPerMultiprocessor */
    case 82: v = 65536; break;            /* MaxRegistersPerMultiprocessor */
    case 97: v = 227 * 1024; break;       /* MaxSharedMemoryPerBlockOptin */
    case 39: v = 2048; break;             /* MaxThreadsPerMultiProcessor */
    case 106: v = 32; break;              /* MaxBlocksPerMultiprocessor */
    case 120: v = 1; break;               /* ClusterLaunch */
    case 11: v = 2147483647; break;       /* MaxPitch */
    case 14: v = 512; break;              /* TextureAlignment (cudaMallocPitch pads rows to it) */
    case 51: v = 32; break;               /* TexturePitchAlignment */
    case 17: v = 0; break;                /* KernelExecTimeout: no watchdog (the step limit instead) */
    case 18: v = 0; break;                /* Integrated */
    case 20: v = 0; break;                /* ComputeMode: default */
    case 31: v = 1; break;                /* ConcurrentKernels (as an H100 says; here they run in turn) */
    case 38: v = 50 * 1024 * 1024; break; /* L2CacheSize */
    case 41: v = 1; break;                /* UnifiedAddressing */
    case 83: v = 1; break;                /* ManagedMemory */
    case 84: v = 0; break;                /* IsMultiGpuBoard */
    case 88: v = 0; break;                /* PageableMemoryAccess: a kernel cannot read host memory */
    case 89: v = 1; break;                /* ConcurrentManagedAccess (launches end before the host goes on) */
    case 95: v = 1; break;                /* CooperativeLaunch */
    case 115: v = 1; break;               /* MemoryPoolsSupported (pool.c) */
    case 78: v = 1; break;                /* StreamPrioritiesSupported (kept and read back; queries.c) */
    case 109: v = 134213632; break;       /* MaxAccessPolicyWindowSize (a window is kept, not modelled) */
    case 111: v = 1024; break;            /* ReservedSharedMemoryPerBlock (the occupancy queries' 1 KiB) */
    default: {
        char name[80];
        snprintf(name, sizeof name, "cudaDeviceGetAttribute (attribute %d)", attr);
        return bs_unimplemented(name);
    }
    }
    *value = v;
    return cudaSuccess;
}

/* One device: it has no peer (CUDA answers 0 for a device and itself). */
int cudaDeviceCanAccessPeer(int *canAccessPeer, int device, int peerDevice) {
    if (canAccessPeer == NULL) return bs_set(cudaErrorInvalidValue);
    if (device != 0 || peerDevice != 0) return bs_set(cudaErrorInvalidDevice);
    *canAccessPeer = 0;
    return cudaSuccess;
}

/* struct cudaDeviceProp of CUDA 13 (1,008 bytes; offsets from its cuda_runtime_api.h): what the
   emulated device answers, the rest zero. */
int cudaGetDeviceProperties(void *prop, int device) {
    if (prop == NULL) return bs_set(cudaErrorInvalidValue);
    if (device != 0) return bs_set(cudaErrorInvalidDevice);
    unsigned char *p = prop;
    memset(p, 0, 1008);
    strcpy((char *) p, "BarrierScope emulated sm_90a");
#define PUT(off, type, v) do { type x_ = (v); memcpy(p + (off), &x_, sizeof x_); } while (0)
    PUT(288, uint64_t, 1ull << 30);          /* totalGlobalMem: the device budget */
    PUT(296, uint64_t, 48 * 1024);           /* sharedMemPerBlock */
    PUT(304, int, 65536);                    /* regsPerBlock */
    PUT(308, int, 32);                       /* warpSize */
    PUT(312, uint64_t, 2147483647ull);       /* memPitch */
    PUT(320, int, 1024);                     /* maxThreadsPerBlock */
    PUT(324, int, 1024); PUT(328, int, 1024); PUT(332, int, 64);
    PUT(336, int, 2147483647); PUT(340, int, 65535); PUT(344, int, 65535);
    PUT(352, uint64_t, 65536);               /* totalConstMem */
    PUT(360, int, 9); PUT(364, int, 0);      /* major, minor */
    PUT(368, uint64_t, 512);                 /* textureAlignment */
    PUT(384, int, 132);                      /* multiProcessorCount */
    PUT(392, int, 1);                        /* canMapHostMemory */
    PUT(560, int, 1);                        /* concurrentKernels */
    PUT(588, int, 1);                        /* unifiedAddressing */
    PUT(596, int, 50 * 1024 * 1024);         /* l2CacheSize */
    PUT(604, int, 2048);                     /* maxThreadsPerMultiProcessor */
    PUT(624, uint64_t, 228 * 1024);          /* sharedMemPerMultiprocessor */
    PUT(632, int, 65536);                    /* regsPerMultiprocessor */
    PUT(668, int, 1);                        /* cooperativeLaunch */
    PUT(672, uint64_t, 227 * 1024);          /* sharedMemPerBlockOptin */
    PUT(688, int, 32);                       /* maxBlocksPerMultiProcessor */
    PUT(696, uint64_t, 1024);                /* reservedSharedMemPerBlock */
    PUT(748, int, 1);                        /* clusterLaunch */
    PUT(608, int, 1);                        /* streamPrioritiesSupported */
    PUT(692, int, 134213632);                /* accessPolicyMaxWindowSize */
    PUT(376, uint64_t, 32);                  /* texturePitchAlignment */
    PUT(636, int, 1);                        /* managedMemory */
    PUT(656, int, 1);                        /* concurrentManagedAccess */
#undef PUT
    return cudaSuccess;
}

/* ---- error names and strings (the texts of CUDA 13's driver_types.h) -------------------------- */

static const struct { int code; const char *name, *text; } errors[] = {
    {0, "cudaSuccess", "no error"},
    {1, "cudaErrorInvalidValue", "invalid argument"},
    {2, "cudaErrorMemoryAllocation", "out of memory"},
    {3, "cudaErrorInitializationError", "initialization error"},
    {9, "cudaErrorInvalidConfiguration", "invalid configuration argument"},
    {12, "cudaErrorInvalidPitchValue", "invalid pitch argument"},
    {13, "cudaErrorInvalidSymbol", "invalid device symbol"},
    {17, "cudaErrorInvalidDevicePointer", "invalid device pointer"},
    {21, "cudaErrorInvalidMemcpyDirection", "invalid copy direction for memcpy"},
    {98, "cudaErrorInvalidDeviceFunction", "invalid device function"},
    {100, "cudaErrorNoDevice", "no CUDA-capable device is detected"},
    {101, "cudaErrorInvalidDevice", "invalid device ordinal"},
    {200, "cudaErrorInvalidKernelImage", "device kernel image is invalid"},
    {209, "cudaErrorNoKernelImageForDevice", "no kernel image is available for execution on the device"},
    {218, "cudaErrorInvalidPtx", "a PTX JIT compilation failed"},
    {217, "cudaErrorPeerAccessUnsupported", "peer access is not supported between these two devices"},
    {400, "cudaErrorInvalidResourceHandle", "invalid resource handle"},
    {401, "cudaErrorIllegalState", "the operation cannot be performed in the present state"},
    {500, "cudaErrorSymbolNotFound", "named symbol not found"},
    {600, "cudaErrorNotReady", "device not ready"},
    {700, "cudaErrorIllegalAddress", "an illegal memory access was encountered"},
    {215, "cudaErrorUnsupportedLimit", "limit is not supported on this architecture"},
    {702, "cudaErrorLaunchTimeout", "the launch timed out and was terminated"},
    {704, "cudaErrorPeerAccessAlreadyEnabled", "peer access is already enabled"},
    {705, "cudaErrorPeerAccessNotEnabled", "peer access has not been enabled"},
    {719, "cudaErrorLaunchFailure", "unspecified launch failure"},
    {800, "cudaErrorNotPermitted", "operation not permitted"},
    {801, "cudaErrorNotSupported", "operation not supported"},
    {900, "cudaErrorStreamCaptureUnsupported", "operation not permitted when stream is capturing"},
    {901, "cudaErrorStreamCaptureInvalidated", "operation failed due to a previous error during capture"},
    {902, "cudaErrorStreamCaptureMerge", "operation would result in a merge of separate capture sequences"},
    {903, "cudaErrorStreamCaptureUnmatched", "capture was not ended in the same stream as it began"},
    {904, "cudaErrorStreamCaptureUnjoined", "capturing stream has unjoined work"},
    {905, "cudaErrorStreamCaptureIsolation", "dependency created on uncaptured work in another stream"},
    {906, "cudaErrorStreamCaptureImplicit", "operation would make the legacy stream depend on a capturing blocking stream"},
    {907, "cudaErrorCapturedEvent", "operation not permitted on an event last recorded in a capturing stream"},
    {908, "cudaErrorStreamCaptureWrongThread", "attempt to terminate a thread-local capture sequence from another thread"},
    {910, "cudaErrorGraphExecUpdateFailure", "the graph update was not performed because it included changes which violated constraints specific to instantiated graph update"},
    {912, "cudaErrorInvalidClusterSize", "invalid cluster size"},
    {999, "cudaErrorUnknown", "unknown error"},
};

const char *cudaGetErrorString(int e) {
    for (size_t i = 0; i < sizeof errors / sizeof errors[0]; i++) if (errors[i].code == e) return errors[i].text;
    return "unrecognized error code";
}

const char *cudaGetErrorName(int e) {
    for (size_t i = 0; i < sizeof errors / sizeof errors[0]; i++) if (errors[i].code == e) return errors[i].name;
    return "cudaErrorUnknown";
}
