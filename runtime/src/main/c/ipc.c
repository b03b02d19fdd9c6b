/*
 * CUDA IPC (docs/runtime.md, "CUDA IPC"): memory and event handles passed between the processes
 * of one `barrierscope exec`. Every process of it talks to the one engine, so device memory is
 * already shared: a memory handle names an allocation by its device address, which the engine
 * never gives out twice (a freed address is never reused), so a handle to freed memory is
 * recognised, never taken for newer memory. Opening maps nothing: the address is already the
 * device's; this process's list learns of it (memory.c) so copies accept it, and a kernel given
 * it reaches the owner's bytes. Every launch and copy here has ended when its call returns, so an
 * event's recorded work is always complete: an opened event needs no link to the exporter's.
 *
 * A handle is 64 opaque bytes (CUDA_IPC_HANDLE_SIZE); ours: u32 magic, u32 version, u32 the
 * exporting process's pid, u32 0, u64 device address (memory) or exporter's event (events),
 * u64 size (memory), zeros.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cudart.h"

int cudaEventCreateWithFlags(cudaEvent_t *e, unsigned flags);

#define MEM_MAGIC 0x4D504942u   /* "BIPM" */
#define EVENT_MAGIC 0x45504942u /* "BIPE" */
#define VERSION 1u
#define LAZY_ENABLE_PEER_ACCESS 1u /* cudaIpcMemLazyEnablePeerAccess */
#define DISABLE_TIMING 0x02        /* cudaEventDisableTiming */
#define INTERPROCESS 0x04          /* cudaEventInterprocess */

typedef struct { char reserved[64]; } ipc_handle; /* cudaIpcMemHandle_t, cudaIpcEventHandle_t */
typedef struct { uint32_t magic, version, pid, zero; uint64_t id, size; } handle_head;

/* Whether fn is a driver call (cuIpc*): its messages name the driver's flag and calls. */
static int driver(const char *fn) { return strncmp(fn, "cuIpc", 5) == 0; }

static void make(ipc_handle *h, uint32_t magic, uint64_t id, uint64_t size) {
    memset(h, 0, sizeof *h);
    handle_head head = {magic, VERSION, (uint32_t) getpid(), 0, id, size};
    memcpy(h->reserved, &head, sizeof head);
}

/* The handle's head, or a named error: not one of ours (cudaErrorInvalidValue), or made in this
   process, which CUDA refuses (a context cannot open its own handles: cudaErrorDeviceUninitialized,
   "invalid device context"). */
static int read_head(const char *fn, const ipc_handle *h, uint32_t magic, handle_head *head) {
    memcpy(head, h->reserved, sizeof *head);
    if (head->magic != magic || head->version != VERSION || head->zero != 0) {
        bs_say(fn, cudaErrorInvalidValue, magic == MEM_MAGIC ? "the handle was not made by cudaIpcGetMemHandle or cuIpcGetMemHandle"
                                                             : "the handle was not made by cudaIpcGetEventHandle or cuIpcGetEventHandle");
        return bs_set(cudaErrorInvalidValue);
    }
    if (head->pid == (uint32_t) getpid()) {
        bs_say(fn, cudaErrorDeviceUninitialized, "the handle was made in this process; only another process may open it");
        return bs_set(cudaErrorDeviceUninitialized);
    }
    return cudaSuccess;
}

/* The documented use passes the base of an allocation of cudaMalloc (or cudaMallocPitch,
   cudaMalloc3D); an address inside it names the whole allocation (opening gives the base). */
static int get_mem(const char *fn, ipc_handle *handle, void *devPtr) {
    BS_STICKY();
    if (handle == NULL) return bs_set(cudaErrorInvalidValue);
    uint64_t base = 0, size = 0;
    const char *made = "";
    int r = bs_ipc_export_range(devPtr, &base, &size, &made);
    if (r != 0) {
        char why[160];
        if (r == 1) snprintf(why, sizeof why, "%p is not device memory cudaMalloc returned", devPtr);
        else if (r == 2) snprintf(why, sizeof why, "%p was made by %s; only cudaMalloc's memory has IPC handles", devPtr, made);
        else snprintf(why, sizeof why, "%p was opened with cudaIpcOpenMemHandle or cuIpcOpenMemHandle; only its owner exports it", devPtr);
        bs_say(fn, cudaErrorInvalidValue, why);
        return bs_set(cudaErrorInvalidValue);
    }
    make(handle, MEM_MAGIC, base, size);
    return cudaSuccess;
}

static int open_mem(const char *fn, void **devPtr, ipc_handle handle, unsigned flags) {
    BS_STICKY();
    if (devPtr == NULL) return bs_set(cudaErrorInvalidValue);
    if (flags != LAZY_ENABLE_PEER_ACCESS) {
        bs_say(fn, cudaErrorInvalidValue, driver(fn) ? "Flags must be CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS, as documented"
                                                   : "flags must be cudaIpcMemLazyEnablePeerAccess, as documented");
        return bs_set(cudaErrorInvalidValue);
    }
    handle_head head;
    int e = read_head(fn, &handle, MEM_MAGIC, &head);
    if (e) return e;
    /* Still allocated? The engine is asked for the allocation's first byte: its owner may have
       freed it since, and a freed address is never given out again. */
    if (!bs_engine_holds((void *) (uintptr_t) head.id, 1)) {
        char why[160];
        snprintf(why, sizeof why, "the allocation at 0x%llx (%llu bytes) the handle names was freed",
                 (unsigned long long) head.id, (unsigned long long) head.size);
        bs_say(fn, cudaErrorInvalidResourceHandle, why);
        return bs_set(cudaErrorInvalidResourceHandle);
    }
    bs_ipc_map(head.id, head.size);
    *devPtr = (void *) (uintptr_t) head.id;
    return cudaSuccess;
}

static int close_mem(const char *fn, void *devPtr) {
    BS_STICKY();
    if (bs_ipc_unmap((uint64_t) (uintptr_t) devPtr) < 0) {
        char why[120];
        snprintf(why, sizeof why, "%p is no memory %s returned (or it was closed as often as opened)", devPtr,
                 driver(fn) ? "cuIpcOpenMemHandle" : "cudaIpcOpenMemHandle");
        bs_say(fn, cudaErrorInvalidValue, why);
        return bs_set(cudaErrorInvalidValue);
    }
    return cudaSuccess;
}

static int get_event(const char *fn, ipc_handle *handle, cudaEvent_t event) {
    BS_STICKY();
    if (handle == NULL) return bs_set(cudaErrorInvalidValue);
    int flags = bs_event_flags(event);
    if (flags < 0) return bs_set(cudaErrorInvalidResourceHandle);
    if ((flags & (INTERPROCESS | DISABLE_TIMING)) != (INTERPROCESS | DISABLE_TIMING)) {
        bs_say(fn, cudaErrorInvalidResourceHandle,
               driver(fn) ? "the event was not made with CU_EVENT_INTERPROCESS | CU_EVENT_DISABLE_TIMING"
                          : "the event was not made with cudaEventInterprocess | cudaEventDisableTiming");
        return bs_set(cudaErrorInvalidResourceHandle);
    }
    make(handle, EVENT_MAGIC, (uint64_t) (uintptr_t) event, 0);
    return cudaSuccess;
}

/* A new event of this process, as documented "like a locally created event with
   cudaEventDisableTiming"; destroyed with cudaEventDestroy. */
static int open_event(const char *fn, cudaEvent_t *event, ipc_handle handle) {
    BS_STICKY();
    if (event == NULL) return bs_set(cudaErrorInvalidValue);
    handle_head head;
    int e = read_head(fn, &handle, EVENT_MAGIC, &head);
    return e ? e : cudaEventCreateWithFlags(event, DISABLE_TIMING | INTERPROCESS);
}

/* The runtime's calls; the driver's below name themselves in their messages. */
int cudaIpcGetMemHandle(ipc_handle *handle, void *devPtr) { return get_mem("cudaIpcGetMemHandle", handle, devPtr); }
int cudaIpcOpenMemHandle(void **devPtr, ipc_handle handle, unsigned flags) { return open_mem("cudaIpcOpenMemHandle", devPtr, handle, flags); }
int cudaIpcCloseMemHandle(void *devPtr) { return close_mem("cudaIpcCloseMemHandle", devPtr); }
int cudaIpcGetEventHandle(ipc_handle *handle, cudaEvent_t event) { return get_event("cudaIpcGetEventHandle", handle, event); }
int cudaIpcOpenEventHandle(cudaEvent_t *event, ipc_handle handle) { return open_event("cudaIpcOpenEventHandle", event, handle); }

/* ---- the driver's forms (cudaGetDriverEntryPoint, cuGetProcAddress) --------------------------- */

/* cuIpcGetMemHandle, cuIpcOpenMemHandle (CUDA 13 resolves the name to its _v2, the same
   signature), cuIpcCloseMemHandle, cuIpcGetEventHandle, cuIpcOpenEventHandle: the calls above, each
   message naming the driver call,
   sharing their handles (a CUipcMemHandle is the same 64 bytes, so a handle of either API opens
   with the other), with the runtime's last error left as it was. A CUdeviceptr is the device
   address; a CUevent is a runtime event here. Each error returned has the same number in the
   driver: CUDA_ERROR_INVALID_VALUE (1), CUDA_ERROR_INVALID_CONTEXT (201, cudaErrorDeviceUninitialized),
   CUDA_ERROR_INVALID_HANDLE (400, cudaErrorInvalidResourceHandle), and the sticky launch errors. */
int bs_cu_ipc_get_mem_handle(ipc_handle *handle, uint64_t dptr) {
    BS_DRIVER(get_mem("cuIpcGetMemHandle", handle, (void *) (uintptr_t) dptr));
}

static int cu_open_mem(uint64_t *pdptr, ipc_handle handle, unsigned flags) {
    if (pdptr == NULL) return cudaErrorInvalidValue;
    void *p = NULL;
    int e = open_mem("cuIpcOpenMemHandle", &p, handle, flags);
    if (e == cudaSuccess) *pdptr = (uint64_t) (uintptr_t) p;
    return e;
}

int bs_cu_ipc_open_mem_handle(uint64_t *pdptr, ipc_handle handle, unsigned flags) { BS_DRIVER(cu_open_mem(pdptr, handle, flags)); }
int bs_cu_ipc_close_mem_handle(uint64_t dptr) { BS_DRIVER(close_mem("cuIpcCloseMemHandle", (void *) (uintptr_t) dptr)); }
int bs_cu_ipc_get_event_handle(ipc_handle *handle, cudaEvent_t event) { BS_DRIVER(get_event("cuIpcGetEventHandle", handle, event)); }
int bs_cu_ipc_open_event_handle(cudaEvent_t *event, ipc_handle handle) { BS_DRIVER(open_event("cuIpcOpenEventHandle", event, handle)); }
