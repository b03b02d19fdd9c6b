/*
 * Host-side state a program sets and reads back (docs/runtime.md, "What is implemented"):
 * stream priorities, ids and attributes, device limits, flags and cache configuration, and
 * stream callbacks. None of it changes what a kernel computes on the engine (there is no L2
 * to keep lines in, and work runs one piece at a time, to its end, in issue order), but each
 * value is checked as the CUDA runtime API documents it (cuda_runtime_api.h, driver_types.h of
 * CUDA 13.0) and read back as set.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "protocol.h"

#define PRIORITY_LEAST 0
#define PRIORITY_GREATEST (-5)

enum { ATTR_ACCESS_POLICY_WINDOW = 1, ATTR_SYNC_POLICY = 3, ATTR_PRIORITY = 8, ATTR_MEM_SYNC_DOMAIN_MAP = 9,
       ATTR_MEM_SYNC_DOMAIN = 10, ATTR_NVLINK_UTIL_CENTRIC = 16 };

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static bs_stream legacy;             /* the legacy default stream's attributes */
static unsigned long long next_stream_id = 1;

int cudaStreamCreateWithFlags(cudaStream_t *s, unsigned flags);

int cudaDeviceGetStreamPriorityRange(int *least, int *greatest) {
    if (least) *least = PRIORITY_LEAST;
    if (greatest) *greatest = PRIORITY_GREATEST;
    return cudaSuccess;
}

static int clamp_priority(int p) { return p > PRIORITY_LEAST ? PRIORITY_LEAST : p < PRIORITY_GREATEST ? PRIORITY_GREATEST : p; }

/* "Priorities outside the range ... are clamped" (cudaStreamCreateWithPriority). */
int cudaStreamCreateWithPriority(cudaStream_t *s, unsigned flags, int priority) {
    int e = cudaStreamCreateWithFlags(s, flags);
    if (e == cudaSuccess) ((bs_stream *) *s)->priority = clamp_priority(priority);
    return e;
}

/* The stream a query names (the legacy default stream's record for 0), or NULL after an error. */
static bs_stream *stream_for(cudaStream_t s, int *err) {
    int bad;
    bs_stream *st = bs_stream_of(s, &bad);
    *err = bad ? bs_set(cudaErrorInvalidResourceHandle) : cudaSuccess;
    return bad ? NULL : st ? st : &legacy;
}

int cudaStreamGetPriority(cudaStream_t s, int *priority) {
    int e;
    bs_stream *st = stream_for(s, &e);
    if (st == NULL) return e;
    if (priority == NULL) return bs_set(cudaErrorInvalidValue);
    *priority = st->priority;
    return cudaSuccess;
}

int cudaStreamGetDevice(cudaStream_t s, int *device) {
    int e;
    if (stream_for(s, &e) == NULL) return e;
    if (device == NULL) return bs_set(cudaErrorInvalidValue);
    *device = 0;
    return cudaSuccess;
}

/* Unique among the process's streams: each stream (the per-thread default stream of each thread,
   the legacy one) gets the next number when first asked. */
int cudaStreamGetId(cudaStream_t s, unsigned long long *id) {
    int e;
    bs_stream *st = stream_for(s, &e);
    if (st == NULL) return e;
    if (id == NULL) return bs_set(cudaErrorInvalidValue);
    pthread_mutex_lock(&lock);
    if (st->id == 0) st->id = next_stream_id++;
    *id = st->id;
    pthread_mutex_unlock(&lock);
    return cudaSuccess;
}

/* struct cudaAccessPolicyWindow: base_ptr, num_bytes, hitRatio, hitProp, missProp. */
typedef struct { void *base; size_t bytes; float hit_ratio; int hit_prop, miss_prop; } access_policy_window;

/* Whether a value of attribute id is one the documentation allows (for streams: nodes too). */
int bs_attribute_check(const char *fn, int id, const unsigned char *v) {
    const char *why = NULL;
    int i;
    memcpy(&i, v, sizeof i);
    if (id == ATTR_ACCESS_POLICY_WINDOW) {
        access_policy_window w;
        memcpy(&w, v, sizeof w);
        if (w.bytes > 134213632) why = "accessPolicyWindow.num_bytes above cudaDevAttrMaxAccessPolicyWindowSize (134213632)";
        else if (!(w.hit_ratio >= 0.0f && w.hit_ratio <= 1.0f)) why = "accessPolicyWindow.hitRatio must be 0 to 1";
        else if (w.hit_prop < 0 || w.hit_prop > 2) why = "accessPolicyWindow.hitProp: no such cudaAccessProperty";
        else if (w.miss_prop < 0 || w.miss_prop > 1) why = "accessPolicyWindow.missProp must be cudaAccessPropertyNormal or ...Streaming";
    } else if (id == ATTR_SYNC_POLICY && (i < 1 || i > 4)) {
        why = "syncPolicy: no such cudaSynchronizationPolicy";
    } else if (id == ATTR_MEM_SYNC_DOMAIN && (i < 0 || i > 1)) {
        why = "memSyncDomain: no such cudaLaunchMemSyncDomain";
    } else if (id == ATTR_MEM_SYNC_DOMAIN_MAP && (v[0] >= 4 || v[1] >= 4)) {
        why = "memSyncDomainMap: the device has 4 memory synchronization domains";
    }
    if (why == NULL) return cudaSuccess;
    bs_say(fn, cudaErrorInvalidValue, why);
    return bs_set(cudaErrorInvalidValue);
}

static int stream_attribute(int id) {
    return id == ATTR_ACCESS_POLICY_WINDOW || id == ATTR_SYNC_POLICY || id == ATTR_PRIORITY || id == ATTR_MEM_SYNC_DOMAIN_MAP
        || id == ATTR_MEM_SYNC_DOMAIN || id == ATTR_NVLINK_UTIL_CENTRIC;
}

int cudaStreamSetAttribute(cudaStream_t s, int id, const void *value) {
    int e;
    bs_stream *st = stream_for(s, &e);
    if (st == NULL) return e;
    if (value == NULL || !stream_attribute(id)) return bs_set(cudaErrorInvalidValue);
    e = bs_attribute_check("cudaStreamSetAttribute", id, value);
    if (e) return e;
    pthread_mutex_lock(&lock);
    memcpy(st->attrs[id], value, 64);
    if (id == ATTR_PRIORITY) st->priority = clamp_priority(*(const int *) value);
    pthread_mutex_unlock(&lock);
    return cudaSuccess;
}

/* A value never set reads as zeros (no window, cudaSyncPolicyAuto is 1 though: given as set by
   default), the priority as the stream's. */
int cudaStreamGetAttribute(cudaStream_t s, int id, void *value) {
    int e;
    bs_stream *st = stream_for(s, &e);
    if (st == NULL) return e;
    if (value == NULL || !stream_attribute(id)) return bs_set(cudaErrorInvalidValue);
    pthread_mutex_lock(&lock);
    memcpy(value, st->attrs[id], 64);
    if (id == ATTR_PRIORITY) memcpy(value, &st->priority, sizeof st->priority);
    if (id == ATTR_SYNC_POLICY && *(int *) value == 0) *(int *) value = 1; /* cudaSyncPolicyAuto */
    pthread_mutex_unlock(&lock);
    return cudaSuccess;
}

int cudaStreamCopyAttributes(cudaStream_t dst, cudaStream_t src) {
    int e;
    bs_stream *d = stream_for(dst, &e), *s;
    if (d == NULL) return e;
    if ((s = stream_for(src, &e)) == NULL) return e;
    pthread_mutex_lock(&lock);
    if (d != s) memcpy(d->attrs, s->attrs, sizeof d->attrs);
    d->priority = s->priority;
    pthread_mutex_unlock(&lock);
    return cudaSuccess;
}

#define PT(s) ((s) == NULL ? (cudaStream_t) (uintptr_t) 2 : (s))
int cudaStreamGetPriority_ptsz(cudaStream_t s, int *p) { return cudaStreamGetPriority(PT(s), p); }
int cudaStreamGetDevice_ptsz(cudaStream_t s, int *d) { return cudaStreamGetDevice(PT(s), d); }
int cudaStreamGetId_ptsz(cudaStream_t s, unsigned long long *id) { return cudaStreamGetId(PT(s), id); }
int cudaStreamSetAttribute_ptsz(cudaStream_t s, int id, const void *v) { return cudaStreamSetAttribute(PT(s), id, v); }
int cudaStreamGetAttribute_ptsz(cudaStream_t s, int id, void *v) { return cudaStreamGetAttribute(PT(s), id, v); }
int cudaStreamCopyAttributes_ptsz(cudaStream_t d, cudaStream_t s) { return cudaStreamCopyAttributes(PT(d), PT(s)); }

/* ---- device limits, flags, configuration --------------------------------------------------------- */

/* cudaLimit 0..6 and their values on an H100 before any is set: stack bytes per thread, printf
   FIFO, malloc heap, device-runtime sync depth and pending launches, L2 fetch granularity,
   persisting L2 bytes. Kept as set (the engine's printf and stack do not depend on them; the
   malloc heap's size is the engine's device heap, BS_HEAP_LIMIT). */
static size_t limits[7] = {1024, 1048576, 8388608, 2, 2048, 32, 0};

int cudaDeviceSetLimit(int limit, size_t value) {
    BS_STICKY();
    if (limit < 0 || limit > 6) return bs_set(cudaErrorUnsupportedLimit);
    if (limit == 5 && value > 128) value = 128; /* "can be ignored or clamped" */
    if (limit == 2) { /* the device heap is the engine's: it says whether the size may still change */
        bs_buf b = {0}, r = {0};
        bs_put_u64(&b, value);
        uint32_t st = bs_call(BS_HEAP_LIMIT, &b, &r);
        free(b.p);
        free(r.p);
        if (st != 0) return bs_set((int) st);
    }
    pthread_mutex_lock(&lock);
    limits[limit] = value;
    pthread_mutex_unlock(&lock);
    return cudaSuccess;
}

int cudaDeviceGetLimit(size_t *value, int limit) {
    if (value == NULL) return bs_set(cudaErrorInvalidValue);
    if (limit < 0 || limit > 6) return bs_set(cudaErrorUnsupportedLimit);
    pthread_mutex_lock(&lock);
    *value = limits[limit];
    pthread_mutex_unlock(&lock);
    return cudaSuccess;
}

static unsigned device_flags = 0, cache_config = 0;

/* cudaDeviceScheduleMask (0x07) | cudaDeviceMapHost (0x08) | cudaDeviceLmemResizeToMax (0x10) |
   cudaDeviceSyncMemops (0x80): any other bit is cudaErrorInvalidValue. */
int cudaSetDeviceFlags(unsigned flags) {
    if ((flags & ~0x9Fu) != 0 || (flags & 0x7u) == 3 || (flags & 0x7u) > 4) return bs_set(cudaErrorInvalidValue);
    device_flags = flags;
    return cudaSuccess;
}

/* As the runtime reports them: cudaDeviceMapHost is always set. */
int cudaGetDeviceFlags(unsigned *flags) {
    if (flags == NULL) return bs_set(cudaErrorInvalidValue);
    *flags = device_flags | 0x08u;
    return cudaSuccess;
}

int cudaDeviceSetCacheConfig(int config) {
    if (config < 0 || config > 3) return bs_set(cudaErrorInvalidValue);
    cache_config = (unsigned) config;
    return cudaSuccess;
}

int cudaDeviceGetCacheConfig(int *config) {
    if (config == NULL) return bs_set(cudaErrorInvalidValue);
    *config = (int) cache_config;
    return cudaSuccess;
}

/* Shared memory banks are 4 bytes wide on sm_90 (cudaSharedMemBankSizeFourByte). */
int cudaDeviceGetSharedMemConfig(int *config) {
    if (config == NULL) return bs_set(cudaErrorInvalidValue);
    *config = 1;
    return cudaSuccess;
}
int cudaDeviceSetSharedMemConfig(int config) { return config < 0 || config > 2 ? bs_set(cudaErrorInvalidValue) : cudaSuccess; }
int cudaFuncSetSharedMemConfig(const void *func, int config) { (void) func; return cudaDeviceSetSharedMemConfig(config); }

/* Nothing is profiled here; both succeed, as with no profiler attached. */
int cudaProfilerStart(void) { return cudaSuccess; }
int cudaProfilerStop(void) { return cudaSuccess; }

/* ---- stream callbacks ------------------------------------------------------------------------------ */

/* The stream's earlier work has all run when this is issued, so the callback runs now, with
   cudaSuccess (after a failed launch the call returns the sticky error instead). "flags must be 0". A capture cannot
   hold one (the documentation points to cudaLaunchHostFunc), so on a capturing stream it is
   named and the capture invalidated. */
int cudaStreamAddCallback(cudaStream_t s, void (*cb)(cudaStream_t, int, void *), void *data, unsigned flags) {
    if (cb == NULL || flags != 0) return bs_set(cudaErrorInvalidValue);
    int e = bs_stream_uncapturable(s, "cudaStreamAddCallback"); /* also the legacy-stream and handle checks */
    if (e) return e;
    cb(s, cudaSuccess, data);
    return cudaSuccess;
}

int cudaStreamAddCallback_ptsz(cudaStream_t s, void (*cb)(cudaStream_t, int, void *), void *data, unsigned flags) {
    return cudaStreamAddCallback(PT(s), cb, data, flags);
}

/* There is no L2 here: nothing persists, so there is nothing to reset. */
int cudaCtxResetPersistingL2Cache(void) { BS_STICKY(); return cudaSuccess; }

/* ---- device identity ----------------------------------------------------------------------------- */

/* The one emulated device has no PCI slot; it answers as domain 0, bus 0, device 0 (the
   properties' pciBusID, pciDeviceID and pciDomainID are 0 too), and that id names it back. */
#define PCI_BUS_ID "0000:00:00.0"

int cudaDeviceGetPCIBusId(char *id, int len, int device) {
    if (id == NULL || len <= 0) return bs_set(cudaErrorInvalidValue);
    if (device != 0) return bs_set(cudaErrorInvalidDevice);
    snprintf(id, (size_t) len, "%s", PCI_BUS_ID);
    return cudaSuccess;
}

int cudaDeviceGetByPCIBusId(int *device, const char *id) {
    if (device == NULL || id == NULL) return bs_set(cudaErrorInvalidValue);
    /* "[domain]:[bus]:[device].[function]" or "[bus]:[device].[function]", hexadecimal */
    unsigned dom = 0, bus = 1, dev = 1, fn = 1;
    int n = sscanf(id, "%x:%x:%x.%x", &dom, &bus, &dev, &fn);
    if (n != 4) {
        dom = 0;
        n = sscanf(id, "%x:%x.%x", &bus, &dev, &fn) == 3 ? 4 : 0;
    }
    if (n != 4 || dom != 0 || bus != 0 || dev != 0) return bs_set(cudaErrorInvalidDevice);
    *device = 0;
    return cudaSuccess;
}

/* There is one device, so it is the closest match to any properties. */
int cudaChooseDevice(int *device, const void *prop) {
    if (device == NULL || prop == NULL) return bs_set(cudaErrorInvalidValue);
    *device = 0;
    return cudaSuccess;
}

/* Managed memory is one memory here (managed.c): attaching it to a stream or to the host changes
   nothing; flags must be one of cudaMemAttachGlobal, ...Host, ...Single, the pointer managed. A
   capture cannot hold it (named, and the capture invalidated). */
int cudaStreamAttachMemAsync(cudaStream_t s, void *ptr, size_t length, unsigned flags) {
    if (flags != 1 && flags != 2 && flags != 4) return bs_set(cudaErrorInvalidValue);
    if (bs_managed(ptr, length ? length : 1) != BS_MANAGED) {
        bs_say("cudaStreamAttachMemAsync", cudaErrorInvalidValue, "the pointer is not managed memory");
        return bs_set(cudaErrorInvalidValue);
    }
    return bs_stream_uncapturable(s, "cudaStreamAttachMemAsync");
}

int cudaStreamAttachMemAsync_ptsz(cudaStream_t s, void *ptr, size_t length, unsigned flags) {
    return cudaStreamAttachMemAsync(PT(s), ptr, length, flags);
}
