/*
 * Device memory: allocations, copies, memset and symbols. The bytes live in the engine's one
 * device address space (`barrierscope exec`); this side keeps the list of allocations only, to
 * tell device pointers from host ones (cudaMemcpyDefault) and to refuse bad pointers with a
 * message before anything is written.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cudart.h"
#include "protocol.h"

enum { H2H = 0, H2D = 1, D2H = 2, D2D = 3, DEFAULT = 4 };

/* fn: the call that made it (static text); opened: a mapping of another process's cudaMalloc
   opened with cudaIpcOpenMemHandle (its reference count; ipc.c), not this process's to free. */
typedef struct { uint64_t base, size; const char *fn; unsigned opened; } allocation;
static pthread_mutex_t mem_lock = PTHREAD_MUTEX_INITIALIZER;
static allocation *allocs;
static size_t nallocs;

int bs_is_device(const void *p, size_t n) {
    uint64_t a = (uint64_t) (uintptr_t) p;
    int yes = 0;
    pthread_mutex_lock(&mem_lock);
    for (size_t i = 0; i < nallocs && !yes; i++) yes = a >= allocs[i].base && a + n <= allocs[i].base + allocs[i].size;
    pthread_mutex_unlock(&mem_lock);
    return yes;
}

/* Symbols live in the device space too but are not allocations: Java checks every address. */
static int is_known_device(const void *p, size_t n) { return bs_is_device(p, n); }

#define sync_ok bs_capture_check_sync

int cudaMalloc(void **devPtr, size_t size) {
    BS_STICKY();
    int c = bs_capture_check_unsafe("cudaMalloc");
    return c ? c : bs_malloc("cudaMalloc", devPtr, size);
}

int bs_malloc(const char *fn, void **devPtr, size_t size) {
    BS_STICKY();
    if (devPtr == NULL) return bs_set(cudaErrorInvalidValue);
    bs_buf b = {0}, r = {0};
    bs_put_u64(&b, size);
    bs_put_str(&b, fn);
    uint32_t st = bs_call(BS_MALLOC, &b, &r);
    uint64_t a = bs_get_u64(&r, 0);
    free(b.p);
    free(r.p);
    if (st != 0) return bs_set((int) st);
    pthread_mutex_lock(&mem_lock);
    allocs = realloc(allocs, (nallocs + 1) * sizeof *allocs);
    if (allocs == NULL) bs_fatal("out of host memory");
    allocs[nallocs++] = (allocation){a, size ? size : 1, fn, 0};
    pthread_mutex_unlock(&mem_lock);
    *devPtr = (void *) (uintptr_t) a;
    return cudaSuccess;
}

int cudaFree(void *devPtr) {
    BS_STICKY();
    int c = bs_capture_check_unsafe("cudaFree");
    return c ? c : bs_free("cudaFree", devPtr);
}

int bs_free(const char *fn, void *devPtr) {
    BS_STICKY();
    if (devPtr == NULL) return cudaSuccess;
    int graph = bs_graph_alloc_free(devPtr);
    if (graph >= 0) return graph ? bs_set(graph) : cudaSuccess;
    uint64_t a = (uint64_t) (uintptr_t) devPtr;
    int found = 0;
    pthread_mutex_lock(&mem_lock);
    for (size_t i = 0; i < nallocs; i++) {
        if (allocs[i].base == a && allocs[i].opened) {
            pthread_mutex_unlock(&mem_lock);
            bs_say(fn, cudaErrorInvalidValue, "memory opened with cudaIpcOpenMemHandle is released with cudaIpcCloseMemHandle");
            return bs_set(cudaErrorInvalidValue);
        }
    }
    for (size_t i = 0; i < nallocs; i++) {
        if (allocs[i].base == a) {
            allocs[i] = allocs[--nallocs];
            found = 1;
            break;
        }
    }
    pthread_mutex_unlock(&mem_lock);
    if (!found && bs_free_managed(devPtr)) return cudaSuccess;
    if (!found) {
        fprintf(stderr, "barrierscope: %s(%p): not a pointer cudaMalloc or cudaMallocAsync returned (returns cudaErrorInvalidValue)\n", fn, devPtr);
        return bs_set(cudaErrorInvalidValue);
    }
    bs_pool_forget(devPtr);
    bs_buf b = {0}, r = {0};
    bs_put_u64(&b, a);
    uint32_t st = bs_call(BS_FREE, &b, &r);
    free(b.p);
    free(r.p);
    return bs_set((int) st);
}

/* Pinned host memory is host memory mapped at an engine address (managed.c), so that kernels
   reach it at the host pointer, as on a device with unified addressing (cudaHostAllocMapped or
   not); nothing else is pinned, nothing copied by DMA. */
int cudaHostAlloc(void **ptr, size_t size, unsigned flags) {
    BS_STICKY();
    int c = bs_capture_check_unsafe("cudaHostAlloc");
    if (c) return c;
    if (ptr == NULL || (flags & ~0x7u) != 0) return bs_set(cudaErrorInvalidValue); /* Portable, Mapped, WriteCombined */
    return bs_host_alloc("cudaHostAlloc", ptr, size, flags);
}

int cudaMallocHost(void **ptr, size_t size) {
    BS_STICKY();
    int c = bs_capture_check_unsafe("cudaMallocHost");
    if (c) return c;
    if (ptr == NULL) return bs_set(cudaErrorInvalidValue);
    return bs_host_alloc("cudaMallocHost", ptr, size, 0);
}

int cudaFreeHost(void *ptr) {
    BS_STICKY();
    int c = bs_capture_check_unsafe("cudaFreeHost");
    if (c) return c;
    if (ptr == NULL || bs_free_host(ptr)) return cudaSuccess;
    fprintf(stderr, "barrierscope: cudaFreeHost(%p): not a pointer cudaMallocHost or cudaHostAlloc returned "
                    "(returns cudaErrorInvalidValue)\n", ptr);
    return bs_set(cudaErrorInvalidValue);
}

/* The device pointer of pinned or registered memory is the host pointer (unified addressing;
   CanUseHostPointerForRegisteredMem is 1). "flags ... must be set to 0". */
int cudaHostGetDevicePointer(void **pDevice, void *pHost, unsigned flags) {
    if (pDevice == NULL || flags != 0) return bs_set(cudaErrorInvalidValue);
    if (!bs_host_flags(pHost, NULL)) {
        fprintf(stderr, "barrierscope: cudaHostGetDevicePointer(%p): not memory cudaMallocHost or cudaHostAlloc returned "
                        "or cudaHostRegister registered (returns cudaErrorInvalidValue)\n", pHost);
        return bs_set(cudaErrorInvalidValue);
    }
    *pDevice = pHost;
    return cudaSuccess;
}

/* The flags the allocation was made with (cudaMallocHost: 0), or a registered range's flags. */
int cudaHostGetFlags(unsigned *pFlags, void *pHost) {
    if (pFlags == NULL || !bs_host_flags(pHost, pFlags)) return bs_set(cudaErrorInvalidValue);
    return cudaSuccess;
}

/* The engine's reason (a string in the reply) names the nearest allocation. */
static int bad_pointer(const char *fn, const char *which, const void *p, size_t n, const bs_buf *why) {
    uint32_t len = bs_get_u32(why, 0);
    int shown = len <= why->len - 4 && why->len >= 4 ? (int) len : 0;
    fprintf(stderr, "barrierscope: %s: the %s pointer %p (%zu bytes) is not device memory: %.*s "
                    "(returns cudaErrorInvalidValue; nothing was written)\n", fn, which, p, n, shown, shown ? why->p + 4 : "");
    return bs_set(cudaErrorInvalidValue);
}

static int copy_once(const char *fn, void *dst, const void *src, size_t count, int kind);

/* Large copies go in 64 MiB pieces, so that no message comes near the wire's limit. */
#define PIECE ((size_t) 64 << 20)

static int copy(const char *fn, void *dst, const void *src, size_t count, int kind) {
    BS_STICKY();
    /* A managed pointer's bytes are in this process between launches (managed.c): a host side. */
    if ((kind == H2D || kind == D2D) && bs_managed(dst, count)) kind = kind == H2D ? H2H : D2H;
    if ((kind == D2H || kind == D2D) && bs_managed(src, count)) kind = kind == D2H ? H2H : H2D;
    if (count <= PIECE) return copy_once(fn, dst, src, count, kind);
    if (kind == DEFAULT) {
        int dd = is_known_device(dst, count), sd = is_known_device(src, count);
        kind = dd ? (sd ? D2D : H2D) : (sd ? D2H : H2H);
    }
    for (size_t at = 0; at < count; at += PIECE) {
        size_t n = count - at < PIECE ? count - at : PIECE;
        int e = copy_once(fn, (char *) dst + at, (const char *) src + at, n, kind);
        if (e) return e;
    }
    return cudaSuccess;
}

/* Whether every page of [p, p + n) is mapped in this process (msync says ENOMEM for a hole). */
static int host_mapped(const void *p, size_t n) {
    uintptr_t page = (uintptr_t) sysconf(_SC_PAGESIZE), a = (uintptr_t) p & ~(page - 1), end = (uintptr_t) p + n;
    if (end < (uintptr_t) p) return 0;
    return msync((void *) a, end - a, MS_ASYNC) == 0 || errno != ENOMEM;
}

/*
 * The side of a copy its kind says is host memory is touched here, in the program's process: a
 * device pointer there (a kind that does not match its pointers, undefined in CUDA) or an address
 * nothing is mapped at (a freed device pointer) crashed the program with SIGSEGV. Refused, named.
 */
static int host_side_ok(const char *fn, const char *which, const void *p, size_t n) {
    const char *why = bs_is_device(p, 1) ? "is device memory, but the copy's kind says host: cudaMemcpy's kind must match its pointers"
                      : !host_mapped(p, n) ? "is not host memory this process has mapped (a device pointer that was freed, or no pointer at all)"
                      : NULL;
    if (why == NULL) return 1;
    fprintf(stderr, "barrierscope: %s: the %s pointer %p (%zu bytes) %s (returns cudaErrorInvalidValue; nothing was copied)\n",
            fn, which, p, n, why);
    return 0;
}

static int copy_once(const char *fn, void *dst, const void *src, size_t count, int kind) {
    if (count == 0) return cudaSuccess;
    if (dst == NULL || src == NULL) return bs_set(cudaErrorInvalidValue);
    if (kind == DEFAULT) {
        int dd = is_known_device(dst, count), sd = is_known_device(src, count);
        kind = dd ? (sd ? D2D : H2D) : (sd ? D2H : H2H);
    }
    if (((kind == H2H || kind == H2D) && !host_side_ok(fn, "source", src, count))
        || ((kind == H2H || kind == D2H) && !host_side_ok(fn, "destination", dst, count)))
        return bs_set(cudaErrorInvalidValue);
    bs_buf b = {0}, r = {0};
    uint32_t st;
    switch (kind) {
    case H2H:
        memmove(dst, src, count);
        return cudaSuccess;
    case H2D:
        bs_put_u64(&b, (uint64_t) (uintptr_t) dst);
        bs_put(&b, src, count);
        st = bs_call(BS_WRITE, &b, &r);
        break;
    case D2H:
        bs_put_u64(&b, (uint64_t) (uintptr_t) src);
        bs_put_u64(&b, count);
        st = bs_call(BS_READ, &b, &r);
        if (st == 0 && r.len == count) memcpy(dst, r.p, count);
        break;
    case D2D:
        bs_put_u64(&b, (uint64_t) (uintptr_t) dst);
        bs_put_u64(&b, (uint64_t) (uintptr_t) src);
        bs_put_u64(&b, count);
        st = bs_call(BS_COPY, &b, &r);
        break;
    default:
        return bs_set(cudaErrorInvalidMemcpyDirection);
    }
    int e = (int) st;
    if (st == cudaErrorInvalidValue) e = bad_pointer(fn, kind == D2H ? "source" : kind == H2D ? "destination" : "source or destination", kind == D2H ? src : dst, count, &r);
    free(b.p);
    free(r.p);
    return bs_set(e);
}

int bs_copy(const char *fn, void *dst, const void *src, size_t count, int kind) { return copy(fn, dst, src, count, kind); }

/* Like every copy, after a failed launch it returns the sticky error (copy() checks). */
int cudaMemcpy(void *dst, const void *src, size_t count, int kind) {
    BS_STICKY();
    int c = sync_ok("cudaMemcpy");
    return c ? c : copy("cudaMemcpy", dst, src, count, kind);
}

/* Stream work (streams.c): runs now, or becomes a memcpy node of the stream's capture. */
static int copy_on(cudaStream_t stream, const char *fn, void *dst, const void *src, size_t count, int kind) {
    if (kind < H2H || kind > DEFAULT) return bs_set(cudaErrorInvalidMemcpyDirection);
    bs_op op = {.type = BS_OP_MEMCPY, .fn = fn};
    op.u.copy.one_d = 1;
    op.u.copy.dst = dst;
    op.u.copy.src = src;
    op.u.copy.count = count;
    op.u.copy.kind = kind;
    return bs_issue(stream, &op);
}

int cudaMemcpyAsync(void *dst, const void *src, size_t count, int kind, cudaStream_t stream) {
    return copy_on(stream, "cudaMemcpyAsync", dst, src, count, kind);
}

int cudaMemset(void *devPtr, int value, size_t count) {
    BS_STICKY();
    int c = sync_ok("cudaMemset");
    return c ? c : bs_memset("cudaMemset", devPtr, value, count);
}

int bs_memset(const char *fn, void *devPtr, int value, size_t count) {
    BS_STICKY();
    if (count > 0 && bs_managed(devPtr, count)) {
        memset(devPtr, value, count);
        return cudaSuccess;
    }
    if (count == 0) return cudaSuccess;
    bs_buf b = {0}, r = {0};
    bs_put_u64(&b, (uint64_t) (uintptr_t) devPtr);
    bs_put_u32(&b, (uint32_t) (value & 0xFF));
    bs_put_u64(&b, count);
    uint32_t st = bs_call(BS_SET, &b, &r);
    int e = (int) st;
    if (st == cudaErrorInvalidValue) e = bad_pointer(fn, "destination", devPtr, count, &r);
    free(b.p);
    free(r.p);
    return bs_set(e);
}

int cudaMemsetAsync(void *devPtr, int value, size_t count, cudaStream_t stream) {
    bs_op op = {.type = BS_OP_MEMSET, .fn = "cudaMemsetAsync"};
    op.u.set.dst = devPtr;
    op.u.set.value = (unsigned) value & 0xFF;
    op.u.set.element_size = 1;
    op.u.set.width = count;
    op.u.set.height = 1;
    op.u.set.depth = 1;
    return bs_issue(stream, &op);
}

int bs_symbol_range(const char *fn, const void *symbol, size_t count, size_t offset, uint64_t *addr) {
    uint64_t size;
    int st = bs_symbol(symbol, addr, &size);
    if (st != 0) {
        const char *why = bs_symbol_module_why(symbol);
        if (why != NULL)
            fprintf(stderr, "barrierscope: %s: the variable's CUDA module cannot run: %s (returns cudaErrorInvalidSymbol)\n",
                    fn, why);
        else
            fprintf(stderr, "barrierscope: %s: %p is not a registered __device__ or __constant__ variable "
                            "(returns cudaErrorInvalidSymbol)\n", fn, symbol);
        return bs_set(cudaErrorInvalidSymbol);
    }
    if (offset > size || count > size - offset) {
        fprintf(stderr, "barrierscope: %s: %zu bytes at offset %zu do not fit the %llu-byte symbol "
                        "(returns cudaErrorInvalidValue)\n", fn, count, offset, (unsigned long long) size);
        return bs_set(cudaErrorInvalidValue);
    }
    *addr += offset;
    return cudaSuccess;
}

int cudaMemcpyToSymbol(const void *symbol, const void *src, size_t count, size_t offset, int kind) {
    BS_STICKY();
    int c = sync_ok("cudaMemcpyToSymbol");
    if (c) return c;
    uint64_t a;
    int st = bs_symbol_range("cudaMemcpyToSymbol", symbol, count, offset, &a);
    if (st) return st;
    return copy("cudaMemcpyToSymbol", (void *) (uintptr_t) a, src, count, kind == D2D ? D2D : H2D);
}

int cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count, size_t offset, int kind) {
    BS_STICKY();
    int c = sync_ok("cudaMemcpyFromSymbol");
    if (c) return c;
    uint64_t a;
    int st = bs_symbol_range("cudaMemcpyFromSymbol", symbol, count, offset, &a);
    if (st) return st;
    return copy("cudaMemcpyFromSymbol", dst, (void *) (uintptr_t) a, count, kind == D2D ? D2D : D2H);
}

/* The symbol's address is looked up now; the copy is stream work. */
int cudaMemcpyToSymbolAsync(const void *symbol, const void *src, size_t count, size_t offset, int kind, cudaStream_t s) {
    BS_STICKY();
    uint64_t a;
    int st = bs_symbol_range("cudaMemcpyToSymbolAsync", symbol, count, offset, &a);
    if (st) return st;
    return copy_on(s, "cudaMemcpyToSymbolAsync", (void *) (uintptr_t) a, src, count, kind == D2D ? D2D : H2D);
}

int cudaMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t count, size_t offset, int kind, cudaStream_t s) {
    BS_STICKY();
    uint64_t a;
    int st = bs_symbol_range("cudaMemcpyFromSymbolAsync", symbol, count, offset, &a);
    if (st) return st;
    return copy_on(s, "cudaMemcpyFromSymbolAsync", dst, (void *) (uintptr_t) a, count, kind == D2D ? D2D : D2H);
}

/* ---- peers: there is one device, so a peer copy is a device-to-device copy on device 0 -------- */

int cudaMemcpyPeer(void *dst, int dstDevice, const void *src, int srcDevice, size_t count) {
    BS_STICKY();
    if (dstDevice != 0 || srcDevice != 0) return bs_set(cudaErrorInvalidDevice);
    int c = sync_ok("cudaMemcpyPeer");
    return c ? c : copy("cudaMemcpyPeer", dst, src, count, D2D);
}

int cudaMemcpyPeerAsync(void *dst, int dstDevice, const void *src, int srcDevice, size_t count, cudaStream_t s) {
    BS_STICKY();
    if (dstDevice != 0 || srcDevice != 0) return bs_set(cudaErrorInvalidDevice);
    return copy_on(s, "cudaMemcpyPeerAsync", dst, src, count, D2D);
}

/* cudaDeviceCanAccessPeer says 0 for device 0 and itself, so, as documented, enabling access to
   it is cudaErrorInvalidDevice; it was never enabled, so disabling it is
   cudaErrorPeerAccessNotEnabled. */
int cudaDeviceEnablePeerAccess(int peerDevice, unsigned flags) {
    BS_STICKY();
    if (peerDevice != 0) return bs_set(cudaErrorInvalidDevice);
    if (flags != 0) return bs_set(cudaErrorInvalidValue);
    fprintf(stderr, "barrierscope: cudaDeviceEnablePeerAccess(%d): there is one device, which is no peer of itself "
                    "(cudaDeviceCanAccessPeer says 0; returns cudaErrorInvalidDevice)\n", peerDevice);
    return bs_set(cudaErrorInvalidDevice);
}

int cudaDeviceDisablePeerAccess(int peerDevice) {
    BS_STICKY();
    return bs_set(peerDevice != 0 ? cudaErrorInvalidDevice : cudaErrorPeerAccessNotEnabled);
}

/* As documented: an attribute that is no cudaDeviceP2PAttr or a NULL value is
   cudaErrorInvalidValue; devices that are not valid or the same device (the only pair one device
   has) cudaErrorInvalidDevice. No device work: answered after a failed launch too. */
int cudaDeviceGetP2PAttribute(int *value, int attr, int src, int dst) {
    if (value == NULL || attr < 1 || attr > 5) return bs_set(cudaErrorInvalidValue);
    if (src != 0 || dst != 0) return bs_set(cudaErrorInvalidDevice);
    fprintf(stderr, "barrierscope: cudaDeviceGetP2PAttribute(%d, %d): there is one device, and the two are the same "
                    "(returns cudaErrorInvalidDevice)\n", src, dst);
    return bs_set(cudaErrorInvalidDevice);
}

int cudaGetSymbolAddress(void **devPtr, const void *symbol) {
    BS_STICKY();
    uint64_t a, size;
    if (bs_symbol(symbol, &a, &size) != 0) return bs_set(cudaErrorInvalidSymbol);
    *devPtr = (void *) (uintptr_t) a;
    return cudaSuccess;
}

int cudaGetSymbolSize(size_t *size, const void *symbol) {
    BS_STICKY();
    uint64_t a, s;
    if (bs_symbol(symbol, &a, &s) != 0) return bs_set(cudaErrorInvalidSymbol);
    *size = s;
    return cudaSuccess;
}

/* ---- more of the memory API ------------------------------------------------------------------- */

#define DEVICE_BYTES (1ull << 30) /* DeviceSession.DEVICE_BUDGET */

int cudaMemGetInfo(size_t *free_bytes, size_t *total) {
    BS_STICKY();
    uint64_t used = 0;
    pthread_mutex_lock(&mem_lock);
    for (size_t i = 0; i < nallocs; i++) used += allocs[i].opened ? 0 : allocs[i].size; /* an opened mapping is counted once, by its owner's entry */
    pthread_mutex_unlock(&mem_lock);
    used += bs_managed_bytes();
    if (free_bytes) *free_bytes = used > DEVICE_BYTES ? 0 : DEVICE_BYTES - used;
    if (total) *total = DEVICE_BYTES;
    return cudaSuccess;
}

/* Registered host memory is reached by kernels at its host pointer, like pinned memory
   (managed.c). Flags: cudaHostRegisterDefault, ...Portable and ...Mapped mean the same here (one
   device, unified addressing); ...ReadOnly makes the range read-only for kernels (a store is a
   memory fault); ...IoMemory (memory-mapped I/O of another PCIe device) has no meaning here and is
   refused by name (cudaErrorNotSupported, as the driver answers where it is not supported). CUDA Runtime API, cudaHostRegister and cudaHostUnregister: a null pointer or
   size 0 is cudaErrorInvalidValue, a range already page-locked cudaErrorHostMemoryAlreadyRegistered,
   unregistering what was never registered cudaErrorHostMemoryNotRegistered. */
int cudaHostRegister(void *ptr, size_t size, unsigned flags) {
    BS_STICKY();
    if (ptr == NULL || size == 0 || (flags & ~0x0Fu) != 0) {
        fprintf(stderr, "barrierscope: cudaHostRegister(%p, %zu, 0x%x): %s (returns cudaErrorInvalidValue)\n", ptr, size, flags,
                ptr == NULL ? "a null pointer" : size == 0 ? "size 0" : "unknown flags");
        return bs_set(cudaErrorInvalidValue);
    }
    if (flags & 0x04) {
        fprintf(stderr, "barrierscope: cudaHostRegister(%p): cudaHostRegisterIoMemory (memory-mapped I/O of another PCIe "
                        "device) has no meaning here (returns cudaErrorNotSupported)\n", ptr);
        return bs_set(cudaErrorNotSupported);
    }
    return bs_host_register(ptr, size, flags);
}

int cudaHostUnregister(void *ptr) {
    BS_STICKY();
    if (ptr == NULL) {
        fprintf(stderr, "barrierscope: cudaHostUnregister: a null pointer (returns cudaErrorInvalidValue)\n");
        return bs_set(cudaErrorInvalidValue);
    }
    return bs_host_unregister(ptr);
}

/* struct cudaPointerAttributes: type (0 unregistered, 1 pinned or registered host, 2 device, 3 managed), device,
   devicePointer, hostPointer. */
int cudaPointerGetAttributes(void *attributes, const void *ptr) {
    BS_STICKY();
    if (attributes == NULL) return bs_set(cudaErrorInvalidValue);
    struct { int type; int device; const void *dev; const void *host; } a = {0, -2, NULL, NULL};
    int held = bs_managed(ptr, 1);
    if (held) {
        a.type = held == BS_MANAGED ? 3 : 1; /* cudaMemoryTypeManaged or ...Host (pinned or registered): the same pointer on both sides */
        a.device = 0;
        a.dev = ptr;
        a.host = ptr;
    } else if (bs_is_device(ptr, 1)) {
        a.type = 2;
        a.device = 0;
        a.dev = ptr;
    } else {
        a.host = ptr;
    }
    memcpy(attributes, &a, sizeof a);
    return cudaSuccess;
}

/* Whether the engine holds [p, p+n), whatever this process's list says: a read of the range
   whose bytes are dropped. */
int bs_engine_holds(const void *p, size_t n) {
    bs_buf b = {0}, r = {0};
    bs_put_u64(&b, (uint64_t) (uintptr_t) p);
    bs_put_u64(&b, n);
    uint32_t st = bs_call(BS_READ, &b, &r);
    free(b.p);
    free(r.p);
    return st == 0;
}

/* A variable's address (cudaGetSymbolAddress) is not in the list: the engine is asked
   (variables are small; a larger range that is no allocation is refused). */
int bs_check_device(const void *p, size_t n) {
    if (n == 0 || bs_is_device(p, n)) return 1;
    return n <= PIECE && bs_engine_holds(p, n);
}

/* ---- CUDA IPC's side of the list (ipc.c) --------------------------------------------------- */

/* The allocation of this process holding p: 0 and its base and size when cudaMalloc (or
   cudaMallocPitch, cudaMalloc3D, which call it) made it; 1 when p is in no allocation; 2 when
   another call made it (its name in *fn); 3 when it is an opened IPC mapping. */
int bs_ipc_export_range(const void *p, uint64_t *base, uint64_t *size, const char **fn) {
    uint64_t a = (uint64_t) (uintptr_t) p;
    int r = 1;
    pthread_mutex_lock(&mem_lock);
    for (size_t i = 0; i < nallocs && r == 1; i++) {
        if (a < allocs[i].base || a >= allocs[i].base + allocs[i].size) continue;
        *base = allocs[i].base;
        *size = allocs[i].size;
        *fn = allocs[i].fn;
        r = allocs[i].opened ? 3 : strcmp(allocs[i].fn, "cudaMalloc") == 0 ? 0 : 2;
    }
    pthread_mutex_unlock(&mem_lock);
    return r;
}

/* cudaIpcOpenMemHandle: maps [base, base + size) in this process's list, or counts one more
   opening of it; returns the reference count. */
unsigned bs_ipc_map(uint64_t base, uint64_t size) {
    pthread_mutex_lock(&mem_lock);
    unsigned refs = 0;
    for (size_t i = 0; i < nallocs && refs == 0; i++) if (allocs[i].base == base && allocs[i].opened) refs = ++allocs[i].opened;
    if (refs == 0) {
        allocs = realloc(allocs, (nallocs + 1) * sizeof *allocs);
        if (allocs == NULL) bs_fatal("out of host memory");
        allocs[nallocs++] = (allocation){base, size, "cudaIpcOpenMemHandle", 1};
        refs = 1;
    }
    pthread_mutex_unlock(&mem_lock);
    return refs;
}

/* cudaIpcCloseMemHandle: one opening fewer of the mapping at base (gone at 0); -1 when no
   mapping opened with cudaIpcOpenMemHandle starts there. */
long bs_ipc_unmap(uint64_t base) {
    long refs = -1;
    pthread_mutex_lock(&mem_lock);
    for (size_t i = 0; i < nallocs && refs < 0; i++) {
        if (allocs[i].base != base || !allocs[i].opened) continue;
        refs = --allocs[i].opened;
        if (refs == 0) allocs[i] = allocs[--nallocs];
    }
    pthread_mutex_unlock(&mem_lock);
    return refs;
}
