/*
 * Stream-ordered allocation and memory pools (docs/runtime.md, "Memory pools"): cudaMallocAsync,
 * cudaMallocFromPoolAsync, cudaFreeAsync, the device's default pool and pools the program makes,
 * and their attributes (driver_types.h's cudaMemPoolAttr). Stream work runs when it is issued, so
 * an asynchronous allocation is made at once (as cudaMalloc, in the one device address space).
 * A pool counts the bytes of its live allocations; freed bytes go back to the device at once
 * (the engine never reuses an address), so its reserved memory is its used memory, whatever its
 * release threshold, which is kept and reported as set. On a capturing stream an allocation is
 * a graph's instead (memory nodes, below).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cudart.h"

#define POOL_MAGIC 0x504F4F4Cu

typedef struct bs_pool {
    uint32_t magic;
    int reuse[3];            /* cudaMemPoolReuse* (attributes 1-3), default enabled */
    uint64_t threshold;      /* cudaMemPoolAttrReleaseThreshold */
    uint64_t used, used_high, reserved_high;
} *cudaMemPool_t;

static struct bs_pool default_pool = {POOL_MAGIC, {1, 1, 1}, 0, 0, 0, 0};
typedef struct { uint64_t addr, size; cudaMemPool_t pool; } pooled;
static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER; /* everything below, current_pool included */
static cudaMemPool_t current_pool = &default_pool;
static pooled *live;
static size_t nlive;

static int bad_pool(cudaMemPool_t p) { return p != &default_pool && (!bs_handle_live(p) || p->magic != POOL_MAGIC); }

int cudaDeviceGetDefaultMemPool(cudaMemPool_t *pool, int device) {
    if (pool == NULL) return bs_set(cudaErrorInvalidValue);
    if (device != 0) return bs_set(cudaErrorInvalidDevice);
    *pool = &default_pool;
    return cudaSuccess;
}

int cudaDeviceGetMemPool(cudaMemPool_t *pool, int device) {
    if (pool == NULL) return bs_set(cudaErrorInvalidValue);
    if (device != 0) return bs_set(cudaErrorInvalidDevice);
    pthread_mutex_lock(&pool_lock);
    *pool = current_pool;
    pthread_mutex_unlock(&pool_lock);
    return cudaSuccess;
}

int cudaDeviceSetMemPool(int device, cudaMemPool_t pool) {
    if (device != 0) return bs_set(cudaErrorInvalidDevice);
    if (bad_pool(pool)) return bs_set(cudaErrorInvalidValue);
    pthread_mutex_lock(&pool_lock);
    current_pool = pool;
    pthread_mutex_unlock(&pool_lock);
    return cudaSuccess;
}

/* struct cudaMemPoolProps (driver_types.h): allocType, handleTypes, location {type, id}, ... */
int cudaMemPoolCreate(cudaMemPool_t *pool, const int *props) {
    if (pool == NULL || props == NULL) return bs_set(cudaErrorInvalidValue);
    /* cudaMemAllocationTypePinned (1), cudaMemLocationTypeDevice (1), device 0; no shareable handles */
    if (props[0] != 1 || props[2] != 1 || props[3] != 0) {
        fprintf(stderr, "barrierscope: cudaMemPoolCreate: only pinned pools on device 0 exist here "
                        "(returns cudaErrorInvalidValue)\n");
        return bs_set(cudaErrorInvalidValue);
    }
    if (props[1] != 0) return bs_unimplemented("cudaMemPoolCreate with shareable handle types (IPC)");
    cudaMemPool_t p = calloc(1, sizeof *p);
    if (p == NULL) return bs_set(cudaErrorMemoryAllocation);
    *p = (struct bs_pool){POOL_MAGIC, {1, 1, 1}, 0, 0, 0, 0};
    bs_handle_add(p);
    *pool = p;
    return cudaSuccess;
}

/* A pool with live allocations may be destroyed; they stay valid until freed (as documented). */
int cudaMemPoolDestroy(cudaMemPool_t pool) {
    if (bad_pool(pool) || pool == &default_pool) return bs_set(cudaErrorInvalidValue);
    pthread_mutex_lock(&pool_lock);
    for (size_t i = 0; i < nlive; i++) if (live[i].pool == pool) live[i].pool = NULL;
    if (current_pool == pool) current_pool = &default_pool;
    pthread_mutex_unlock(&pool_lock);
    pool->magic = 0;
    bs_handle_remove(pool);
    free(pool);
    return cudaSuccess;
}

int cudaMemPoolTrimTo(cudaMemPool_t pool, size_t keep) {
    (void) keep;
    return bad_pool(pool) ? bs_set(cudaErrorInvalidValue) : cudaSuccess;
}

enum { REUSE_FOLLOW = 1, REUSE_OPPORTUNISTIC = 2, REUSE_INTERNAL = 3, RELEASE_THRESHOLD = 4,
       RESERVED_CURRENT = 5, RESERVED_HIGH = 6, USED_CURRENT = 7, USED_HIGH = 8 };

int cudaMemPoolSetAttribute(cudaMemPool_t pool, int attr, void *value) {
    if (bad_pool(pool) || value == NULL) return bs_set(cudaErrorInvalidValue);
    int e = cudaSuccess;
    pthread_mutex_lock(&pool_lock);
    switch (attr) {
    case REUSE_FOLLOW: case REUSE_OPPORTUNISTIC: case REUSE_INTERNAL:
        pool->reuse[attr - 1] = *(int *) value != 0;
        break;
    case RELEASE_THRESHOLD:
        pool->threshold = *(uint64_t *) value;
        break;
    case RESERVED_HIGH: case USED_HIGH: /* "It is illegal to set this attribute to a non-zero value": a reset */
        if (*(uint64_t *) value != 0) e = cudaErrorInvalidValue;
        else if (attr == USED_HIGH) pool->used_high = pool->used;
        else pool->reserved_high = pool->used;
        break;
    default: /* the current amounts are read-only */
        e = cudaErrorInvalidValue;
    }
    pthread_mutex_unlock(&pool_lock);
    return e ? bs_set(e) : cudaSuccess;
}

int cudaMemPoolGetAttribute(cudaMemPool_t pool, int attr, void *value) {
    if (bad_pool(pool) || value == NULL) return bs_set(cudaErrorInvalidValue);
    int e = cudaSuccess;
    pthread_mutex_lock(&pool_lock);
    switch (attr) {
    case REUSE_FOLLOW: case REUSE_OPPORTUNISTIC: case REUSE_INTERNAL: *(int *) value = pool->reuse[attr - 1]; break;
    case RELEASE_THRESHOLD: *(uint64_t *) value = pool->threshold; break;
    case RESERVED_CURRENT: case USED_CURRENT: *(uint64_t *) value = pool->used; break;
    case RESERVED_HIGH: *(uint64_t *) value = pool->reserved_high; break;
    case USED_HIGH: *(uint64_t *) value = pool->used_high; break;
    default: e = cudaErrorInvalidValue;
    }
    pthread_mutex_unlock(&pool_lock);
    return e ? bs_set(e) : cudaSuccess;
}

/* ---- graph allocations: cudaMallocAsync on a capturing stream makes a memory allocation node.
   Its memory is allocated at once, at an address the graph keeps (as a GPU's does); each launch
   makes it live at its alloc node and not live at a free node (or a cudaFree/cudaFreeAsync
   after the launch). Its bytes stay mapped while it is not live: a kernel that uses it then is
   not diagnosed. It is given back when no graph or executable graph holds its node and it is
   not live. ------------------------------------------------------------------------------------ */

typedef struct { uint64_t addr, size; int refs, live, execs; } graph_alloc;
static graph_alloc *gallocs;
static size_t ngallocs;
static uint64_t graph_bytes, graph_bytes_high, graph_reserved_high; /* cudaGraphMemAttr* */

/* The graph allocation at addr (a base address), or NULL; lock: pool_lock is already held. */
static graph_alloc *graph_alloc_of(uint64_t addr, int locked) {
    graph_alloc *g = NULL;
    if (!locked) pthread_mutex_lock(&pool_lock);
    for (size_t i = 0; i < ngallocs && g == NULL; i++) if (gallocs[i].addr == addr) g = &gallocs[i];
    if (!locked) pthread_mutex_unlock(&pool_lock);
    return g;
}

/* Given back, outside the lock, once nothing holds it. */
static void release_if_unused(uint64_t addr) {
    pthread_mutex_lock(&pool_lock);
    graph_alloc *g = graph_alloc_of(addr, 1);
    int give_back = g != NULL && g->refs <= 0 && !g->live;
    if (give_back) {
        graph_bytes -= g->size;
        *g = gallocs[--ngallocs];
    }
    pthread_mutex_unlock(&pool_lock);
    if (give_back) bs_free("cudaFree", (void *) (uintptr_t) addr);
}

void bs_graph_alloc_ref(uint64_t addr, int delta) {
    pthread_mutex_lock(&pool_lock);
    graph_alloc *g = graph_alloc_of(addr, 1);
    if (g != NULL) g->refs += delta;
    pthread_mutex_unlock(&pool_lock);
    if (delta < 0) release_if_unused(addr);
}

/* The op holds the one reference: freeing it unused gives the memory back. */
int bs_graph_alloc_new(const char *fn, size_t size, bs_op *op) {
    void *p;
    int e = bs_malloc(fn, &p, size);
    if (e) return e;
    uint64_t a = (uint64_t) (uintptr_t) p;
    pthread_mutex_lock(&pool_lock);
    gallocs = realloc(gallocs, (ngallocs + 1) * sizeof *gallocs);
    if (gallocs == NULL) bs_fatal("out of host memory");
    gallocs[ngallocs++] = (graph_alloc){a, size, 1, 0, 0};
    graph_bytes += size;
    if (graph_bytes > graph_bytes_high) graph_bytes_high = graph_bytes;
    if (graph_bytes > graph_reserved_high) graph_reserved_high = graph_bytes;
    pthread_mutex_unlock(&pool_lock);
    *op = (bs_op){.type = BS_OP_MEMALLOC, .fn = "cudaGraphLaunch (a memory allocation node)"};
    op->u.mem.addr = a;
    op->u.mem.size = size;
    return cudaSuccess;
}

int bs_graph_alloc_execs(uint64_t addr, int delta) {
    pthread_mutex_lock(&pool_lock);
    graph_alloc *g = graph_alloc_of(addr, 1);
    int n = g ? (g->execs += delta) : 0;
    pthread_mutex_unlock(&pool_lock);
    return n;
}

int bs_is_graph_alloc(const void *p) { return graph_alloc_of((uint64_t) (uintptr_t) p, 0) != NULL; }

static int capture_alloc(const char *fn, void **ptr, size_t size, cudaStream_t stream) {
    bs_op op;
    int e = bs_graph_alloc_new(fn, size, &op);
    if (e) return e;
    *ptr = (void *) (uintptr_t) op.u.mem.addr;
    e = bs_issue(stream, &op); /* not recorded: op is freed, and the memory given back */
    if (e) *ptr = NULL;
    return e;
}

/* cudaGraphMemAttributeType: used and reserved are the same here (all of a graph allocation's
   memory is held from its node's making to its giving back). */
int cudaDeviceGetGraphMemAttribute(int device, int attr, void *value) {
    if (device != 0) return bs_set(cudaErrorInvalidDevice);
    if (value == NULL || attr < 0 || attr > 3) return bs_set(cudaErrorInvalidValue);
    pthread_mutex_lock(&pool_lock);
    *(uint64_t *) value = attr == 1 ? graph_bytes_high : attr == 3 ? graph_reserved_high : graph_bytes;
    pthread_mutex_unlock(&pool_lock);
    return cudaSuccess;
}

int cudaDeviceSetGraphMemAttribute(int device, int attr, void *value) {
    if (device != 0) return bs_set(cudaErrorInvalidDevice);
    if (value == NULL || (attr != 1 && attr != 3) || *(uint64_t *) value != 0) return bs_set(cudaErrorInvalidValue);
    pthread_mutex_lock(&pool_lock);
    if (attr == 1) graph_bytes_high = graph_bytes;
    else graph_reserved_high = graph_bytes;
    pthread_mutex_unlock(&pool_lock);
    return cudaSuccess;
}

int cudaDeviceGraphMemTrim(int device) { return device == 0 ? cudaSuccess : bs_set(cudaErrorInvalidDevice); }

int bs_graph_alloc_run(const bs_op *op) {
    BS_STICKY();
    int alloc = op->type == BS_OP_MEMALLOC, ok;
    pthread_mutex_lock(&pool_lock);
    graph_alloc *g = graph_alloc_of(op->u.mem.addr, 1);
    ok = g != NULL && g->live != alloc;
    if (ok) g->live = alloc;
    pthread_mutex_unlock(&pool_lock);
    if (ok) return cudaSuccess;
    fprintf(stderr, "barrierscope: %s: the graph allocation at 0x%llx is %s (returns cudaErrorInvalidValue)\n", op->fn,
            (unsigned long long) op->u.mem.addr, alloc ? "still allocated" : "not allocated");
    return bs_set(cudaErrorInvalidValue);
}

/* "If any allocations created by graphExec remain unfreed (from a previous launch) and graphExec
   was not instantiated with cudaGraphInstantiateFlagAutoFreeOnLaunch, the launch will fail." */
int bs_graph_alloc_relaunch(const bs_op *op, int auto_free) {
    pthread_mutex_lock(&pool_lock);
    graph_alloc *g = graph_alloc_of(op->u.mem.addr, 1);
    int unfreed = g != NULL && g->live;
    if (unfreed && auto_free) g->live = 0;
    pthread_mutex_unlock(&pool_lock);
    if (!unfreed || auto_free) return cudaSuccess;
    fprintf(stderr, "barrierscope: cudaGraphLaunch: the graph allocation at 0x%llx from an earlier launch is not freed "
                    "(free it, or instantiate with cudaGraphInstantiateFlagAutoFreeOnLaunch) (returns cudaErrorInvalidValue)\n",
            (unsigned long long) op->u.mem.addr);
    return bs_set(cudaErrorInvalidValue);
}

/* cudaFree or cudaFreeAsync (not captured) of a graph allocation: it is no longer live. */
int bs_graph_alloc_free(void *p) {
    uint64_t a = (uint64_t) (uintptr_t) p;
    pthread_mutex_lock(&pool_lock);
    graph_alloc *g = graph_alloc_of(a, 1);
    int found = g != NULL, was_live = found && g->live;
    if (was_live) g->live = 0;
    pthread_mutex_unlock(&pool_lock);
    if (!found) return -1;
    if (!was_live) {
        fprintf(stderr, "barrierscope: cudaFree: the graph allocation at %p is not allocated (no launch of its graph made it, "
                        "or it was freed) (returns cudaErrorInvalidValue)\n", p);
        return cudaErrorInvalidValue;
    }
    release_if_unused(a);
    return cudaSuccess;
}

/* On a capturing stream: a graph allocation (above). Otherwise made at once, counted in its pool;
   (bs_stream_uncapturable checks the handle and the legacy stream's rule). fn: the program's call. */
static int pool_alloc(const char *fn, void **ptr, size_t size, cudaMemPool_t pool, cudaStream_t stream) {
    BS_STICKY();
    if (ptr == NULL || bad_pool(pool)) return bs_set(cudaErrorInvalidValue);
    if (bs_stream_capturing(stream)) return capture_alloc(fn, ptr, size, stream);
    int e = bs_stream_uncapturable(stream, fn);
    if (e) return e;
    e = bs_malloc(fn, ptr, size);
    if (e) return e;
    pthread_mutex_lock(&pool_lock);
    live = realloc(live, (nlive + 1) * sizeof *live);
    if (live == NULL) bs_fatal("out of host memory");
    live[nlive++] = (pooled){(uint64_t) (uintptr_t) *ptr, size, pool};
    pool->used += size;
    if (pool->used > pool->used_high) pool->used_high = pool->used;
    if (pool->used > pool->reserved_high) pool->reserved_high = pool->used;
    pthread_mutex_unlock(&pool_lock);
    return cudaSuccess;
}

int cudaMallocFromPoolAsync(void **ptr, size_t size, cudaMemPool_t pool, cudaStream_t stream) {
    return pool_alloc("cudaMallocFromPoolAsync", ptr, size, pool, stream);
}

int cudaMallocAsync(void **ptr, size_t size, cudaStream_t stream) {
    pthread_mutex_lock(&pool_lock);
    cudaMemPool_t pool = current_pool;
    pthread_mutex_unlock(&pool_lock);
    return pool_alloc("cudaMallocAsync", ptr, size, pool, stream);
}

int cudaFreeAsync(void *ptr, cudaStream_t stream) {
    BS_STICKY();
    if (bs_stream_capturing(stream) && graph_alloc_of((uint64_t) (uintptr_t) ptr, 0)) {
        bs_op op = {.type = BS_OP_MEMFREE, .fn = "cudaGraphLaunch (a memory free node)"};
        op.u.mem.addr = (uint64_t) (uintptr_t) ptr;
        return bs_issue(stream, &op);
    }
    int e = bs_stream_uncapturable(stream, "cudaFreeAsync of memory that is no graph allocation");
    return e ? e : bs_free("cudaFreeAsync", ptr);
}

void bs_pool_forget(void *p) {
    uint64_t a = (uint64_t) (uintptr_t) p;
    pthread_mutex_lock(&pool_lock);
    for (size_t i = 0; i < nlive; i++) {
        if (live[i].addr == a) {
            if (live[i].pool != NULL) live[i].pool->used -= live[i].size;
            live[i] = live[--nlive];
            break;
        }
    }
    pthread_mutex_unlock(&pool_lock);
}

