/*
 * The device count, versions, peers and error names (attributes and properties: device.c;
 * streams, events and stream capture: streams.c).
 * Every launch adds its virtual cycles here; event times are read from them, not wall time.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cudart.h"

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

/* One device: it has no peer (CUDA answers 0 for a device and itself). */
int cudaDeviceCanAccessPeer(int *canAccessPeer, int device, int peerDevice) {
    if (canAccessPeer == NULL) return bs_set(cudaErrorInvalidValue);
    if (device != 0 || peerDevice != 0) return bs_set(cudaErrorInvalidDevice);
    *canAccessPeer = 0;
    return cudaSuccess;
}

/* ---- error names and strings (the texts of CUDA 13's driver_types.h) -------------------------- */

static const struct { int code; const char *text; } errors[] = {
    {0, "no error"},
    {1, "invalid argument"},
    {2, "out of memory"},
    {3, "initialization error"},
    {4, "driver shutting down"},
    {9, "invalid configuration argument"},
    {12, "invalid pitch argument"},
    {13, "invalid device symbol"},
    {16, "invalid host pointer"},
    {17, "invalid device pointer"},
    {20, "invalid channel descriptor"},
    {21, "invalid copy direction for memcpy"},
    {35, "CUDA driver version is insufficient for CUDA runtime version"},
    {52, "__global__ function call is not configured"},
    {98, "invalid device function"},
    {100, "no CUDA-capable device is detected"},
    {101, "invalid device ordinal"},
    {200, "device kernel image is invalid"},
    {201, "invalid device context"},
    {205, "mapping of buffer object failed"},
    {209, "no kernel image is available for execution on the device"},
    {218, "a PTX JIT compilation failed"},
    {304, "OS call failed or operation not supported on this OS"},
    {217, "peer access is not supported between these two devices"},
    {400, "invalid resource handle"},
    {401, "the operation cannot be performed in the present state"},
    {500, "named symbol not found"},
    {600, "device not ready"},
    {700, "an illegal memory access was encountered"},
    {701, "too many resources requested for launch"},
    {215, "limit is not supported on this architecture"},
    {702, "the launch timed out and was terminated"},
    {704, "peer access is already enabled"},
    {705, "peer access has not been enabled"},
    {710, "device-side assert triggered"},
    {712, "part or all of the requested memory range is already mapped"},
    {713, "pointer does not correspond to a registered memory region"},
    {715, "an illegal instruction was encountered"},
    {716, "misaligned address"},
    {718, "invalid program counter"},
    {719, "unspecified launch failure"},
    {720, "too many blocks in cooperative launch"},
    {800, "operation not permitted"},
    {801, "operation not supported"},
    {900, "operation not permitted when stream is capturing"},
    {901, "operation failed due to a previous error during capture"},
    {902, "operation would result in a merge of separate capture sequences"},
    {903, "capture was not ended in the same stream as it began"},
    {904, "capturing stream has unjoined work"},
    {905, "dependency created on uncaptured work in another stream"},
    {906, "operation would make the legacy stream depend on a capturing blocking stream"},
    {907, "operation not permitted on an event last recorded in a capturing stream"},
    {908, "attempt to terminate a thread-local capture sequence from another thread"},
    {910, "the graph update was not performed because it included changes which violated constraints specific to instantiated graph update"},
    {912, "invalid cluster size"},
    {999, "unknown error"},
};

const char *cudaGetErrorString(int e) {
    for (size_t i = 0; i < sizeof errors / sizeof errors[0]; i++) if (errors[i].code == e) return errors[i].text;
    return "unrecognized error code";
}

/* Every cudaError_t of CUDA 13.0's driver_types.h by name (cudaGetErrorName); the table above
   has the texts of the codes the runtime returns and of others programs commonly print. */
static const struct { int code; const char *name; } names[] = {
    {0, "cudaSuccess"}, {1, "cudaErrorInvalidValue"}, {2, "cudaErrorMemoryAllocation"}, {3, "cudaErrorInitializationError"},
    {4, "cudaErrorCudartUnloading"}, {5, "cudaErrorProfilerDisabled"}, {6, "cudaErrorProfilerNotInitialized"},
    {7, "cudaErrorProfilerAlreadyStarted"}, {8, "cudaErrorProfilerAlreadyStopped"},
    {9, "cudaErrorInvalidConfiguration"}, {12, "cudaErrorInvalidPitchValue"}, {13, "cudaErrorInvalidSymbol"},
    {16, "cudaErrorInvalidHostPointer"}, {17, "cudaErrorInvalidDevicePointer"}, {18, "cudaErrorInvalidTexture"},
    {19, "cudaErrorInvalidTextureBinding"}, {20, "cudaErrorInvalidChannelDescriptor"},
    {21, "cudaErrorInvalidMemcpyDirection"}, {22, "cudaErrorAddressOfConstant"}, {23, "cudaErrorTextureFetchFailed"},
    {24, "cudaErrorTextureNotBound"}, {25, "cudaErrorSynchronizationError"}, {26, "cudaErrorInvalidFilterSetting"},
    {27, "cudaErrorInvalidNormSetting"}, {28, "cudaErrorMixedDeviceExecution"}, {31, "cudaErrorNotYetImplemented"},
    {32, "cudaErrorMemoryValueTooLarge"}, {34, "cudaErrorStubLibrary"}, {35, "cudaErrorInsufficientDriver"},
    {36, "cudaErrorCallRequiresNewerDriver"}, {37, "cudaErrorInvalidSurface"}, {43, "cudaErrorDuplicateVariableName"},
    {44, "cudaErrorDuplicateTextureName"}, {45, "cudaErrorDuplicateSurfaceName"}, {46, "cudaErrorDevicesUnavailable"},
    {49, "cudaErrorIncompatibleDriverContext"}, {52, "cudaErrorMissingConfiguration"},
    {53, "cudaErrorPriorLaunchFailure"}, {65, "cudaErrorLaunchMaxDepthExceeded"},
    {66, "cudaErrorLaunchFileScopedTex"}, {67, "cudaErrorLaunchFileScopedSurf"}, {68, "cudaErrorSyncDepthExceeded"},
    {69, "cudaErrorLaunchPendingCountExceeded"}, {98, "cudaErrorInvalidDeviceFunction"}, {100, "cudaErrorNoDevice"},
    {101, "cudaErrorInvalidDevice"}, {102, "cudaErrorDeviceNotLicensed"},
    {103, "cudaErrorSoftwareValidityNotEstablished"}, {127, "cudaErrorStartupFailure"},
    {200, "cudaErrorInvalidKernelImage"}, {201, "cudaErrorDeviceUninitialized"},
    {205, "cudaErrorMapBufferObjectFailed"}, {206, "cudaErrorUnmapBufferObjectFailed"},
    {207, "cudaErrorArrayIsMapped"}, {208, "cudaErrorAlreadyMapped"}, {209, "cudaErrorNoKernelImageForDevice"},
    {210, "cudaErrorAlreadyAcquired"}, {211, "cudaErrorNotMapped"}, {212, "cudaErrorNotMappedAsArray"},
    {213, "cudaErrorNotMappedAsPointer"}, {214, "cudaErrorECCUncorrectable"}, {215, "cudaErrorUnsupportedLimit"},
    {216, "cudaErrorDeviceAlreadyInUse"}, {217, "cudaErrorPeerAccessUnsupported"}, {218, "cudaErrorInvalidPtx"},
    {219, "cudaErrorInvalidGraphicsContext"}, {220, "cudaErrorNvlinkUncorrectable"},
    {221, "cudaErrorJitCompilerNotFound"}, {222, "cudaErrorUnsupportedPtxVersion"},
    {223, "cudaErrorJitCompilationDisabled"}, {224, "cudaErrorUnsupportedExecAffinity"},
    {225, "cudaErrorUnsupportedDevSideSync"}, {226, "cudaErrorContained"}, {300, "cudaErrorInvalidSource"},
    {301, "cudaErrorFileNotFound"}, {302, "cudaErrorSharedObjectSymbolNotFound"},
    {303, "cudaErrorSharedObjectInitFailed"}, {304, "cudaErrorOperatingSystem"},
    {400, "cudaErrorInvalidResourceHandle"}, {401, "cudaErrorIllegalState"}, {402, "cudaErrorLossyQuery"},
    {500, "cudaErrorSymbolNotFound"}, {600, "cudaErrorNotReady"}, {700, "cudaErrorIllegalAddress"},
    {701, "cudaErrorLaunchOutOfResources"}, {702, "cudaErrorLaunchTimeout"},
    {703, "cudaErrorLaunchIncompatibleTexturing"}, {704, "cudaErrorPeerAccessAlreadyEnabled"},
    {705, "cudaErrorPeerAccessNotEnabled"}, {708, "cudaErrorSetOnActiveProcess"},
    {709, "cudaErrorContextIsDestroyed"}, {710, "cudaErrorAssert"}, {711, "cudaErrorTooManyPeers"},
    {712, "cudaErrorHostMemoryAlreadyRegistered"}, {713, "cudaErrorHostMemoryNotRegistered"},
    {714, "cudaErrorHardwareStackError"}, {715, "cudaErrorIllegalInstruction"}, {716, "cudaErrorMisalignedAddress"},
    {717, "cudaErrorInvalidAddressSpace"}, {718, "cudaErrorInvalidPc"}, {719, "cudaErrorLaunchFailure"},
    {720, "cudaErrorCooperativeLaunchTooLarge"}, {721, "cudaErrorTensorMemoryLeak"}, {800, "cudaErrorNotPermitted"},
    {801, "cudaErrorNotSupported"}, {802, "cudaErrorSystemNotReady"}, {803, "cudaErrorSystemDriverMismatch"},
    {804, "cudaErrorCompatNotSupportedOnDevice"}, {805, "cudaErrorMpsConnectionFailed"},
    {806, "cudaErrorMpsRpcFailure"}, {807, "cudaErrorMpsServerNotReady"}, {808, "cudaErrorMpsMaxClientsReached"},
    {809, "cudaErrorMpsMaxConnectionsReached"}, {810, "cudaErrorMpsClientTerminated"},
    {811, "cudaErrorCdpNotSupported"}, {812, "cudaErrorCdpVersionMismatch"},
    {900, "cudaErrorStreamCaptureUnsupported"}, {901, "cudaErrorStreamCaptureInvalidated"},
    {902, "cudaErrorStreamCaptureMerge"}, {903, "cudaErrorStreamCaptureUnmatched"},
    {904, "cudaErrorStreamCaptureUnjoined"}, {905, "cudaErrorStreamCaptureIsolation"},
    {906, "cudaErrorStreamCaptureImplicit"}, {907, "cudaErrorCapturedEvent"},
    {908, "cudaErrorStreamCaptureWrongThread"}, {909, "cudaErrorTimeout"}, {910, "cudaErrorGraphExecUpdateFailure"},
    {911, "cudaErrorExternalDevice"}, {912, "cudaErrorInvalidClusterSize"}, {913, "cudaErrorFunctionNotLoaded"},
    {914, "cudaErrorInvalidResourceType"}, {915, "cudaErrorInvalidResourceConfiguration"}, {999, "cudaErrorUnknown"},
    {10000, "cudaErrorApiFailureBase"},
};

/* As documented: "If the error code is not recognized, "unrecognized error code" is returned." */
const char *cudaGetErrorName(int e) {
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) if (names[i].code == e) return names[i].name;
    return "unrecognized error code";
}

/* ---- channel descriptions ------------------------------------------------------------------------ */

/* struct cudaChannelFormatDesc {int x, y, z, w; enum cudaChannelFormatKind f;}: host data only
   (cuda_runtime.h's cudaCreateChannelDesc<T>() templates call this); cudaMallocArray and
   cudaCreateTextureObject (arrays.c, textures.c) check it. */
typedef struct { int x, y, z, w, f; } channel_desc;
channel_desc cudaCreateChannelDesc(int x, int y, int z, int w, int f) { return (channel_desc){x, y, z, w, f}; }
