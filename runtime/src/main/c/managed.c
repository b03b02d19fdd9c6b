/*
 * Managed memory (cudaMallocManaged), and pinned host memory (cudaMallocHost, cudaHostAlloc),
 * which on a device with unified addressing kernels may read and write at the host pointer:
 * one pointer, valid on the host and on the device at the
 * same value. The engine hands out the device address (an ordinary allocation of its own); this
 * process maps host memory at that very address (mmap MAP_FIXED_NOREPLACE: the engine's device
 * range, 0x10000000000 and up, is far from where Linux places a program's own memory). The host
 * mapping holds the bytes between launches: copies and memsets on a managed pointer are host
 * ones; before each launch every managed allocation is sent to the engine, and after it the
 * bytes the kernel changed are written back (launches run one at a time, to their end, when
 * issued; another host thread may still write during one: those writes are kept). Registered
 * host memory (cudaHostRegister) goes the other way: the program's own range, which the engine
 * maps at that same address; launches then copy it as they copy pinned memory.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "cudart.h"
#include "protocol.h"

/* kind: MANAGED, HOST (pinned, with the flags cudaHostAlloc was given) or REGISTERED (the
   program's own memory, cudaHostRegister's flags); mapped: bytes mapped here (0 for a __managed__
   variable, whose pages may be shared, and for registered memory: never unmapped here). */
enum { MANAGED = 1, HOST = 2, REGISTERED = 3 };
typedef struct { uint64_t base, size, mapped; int kind; unsigned flags; } managed;
static pthread_mutex_t managed_lock = PTHREAD_MUTEX_INITIALIZER;
static managed *list;
static size_t nlist;

#define PAGE ((uint64_t) 4096)
#define PIECE ((uint64_t) 64 << 20)

/* The entry holding [p, p+n), copied into *out (may be NULL); its kind, 0 for none. */
static int find(const void *p, size_t n, managed *out) {
    uint64_t a = (uint64_t) (uintptr_t) p;
    int kind = 0;
    pthread_mutex_lock(&managed_lock);
    for (size_t i = 0; i < nlist && !kind; i++) {
        if (a >= list[i].base && a + n <= list[i].base + list[i].size) {
            kind = list[i].kind;
            if (out) *out = list[i];
        }
    }
    pthread_mutex_unlock(&managed_lock);
    return kind;
}

int bs_managed(const void *p, size_t n) { return find(p, n, NULL); }

/* Adds an entry; the caller holds managed_lock. */
static void add_locked(managed m) {
    list = realloc(list, (nlist + 1) * sizeof *list);
    if (list == NULL) bs_fatal("out of host memory");
    list[nlist++] = m;
}

/* Takes out the entry of `kind` starting at a that this file may release (one map_alloc mapped,
   or a registered range), copied into *out: 1 if there was one. */
static int take(uint64_t a, int kind, managed *out) {
    int found = 0;
    pthread_mutex_lock(&managed_lock);
    for (size_t i = 0; i < nlist && !found; i++) {
        if (list[i].base == a && list[i].kind == kind && (list[i].mapped != 0 || kind == REGISTERED)) {
            *out = list[i];
            list[i] = list[--nlist];
            found = 1;
        }
    }
    pthread_mutex_unlock(&managed_lock);
    return found;
}

static void engine_free(uint64_t a) {
    bs_buf b = {0}, r = {0};
    bs_put_u64(&b, a);
    bs_call(BS_FREE, &b, &r);
    free(b.p);
    free(r.p);
}

/* An engine allocation of `size` bytes mapped here at its own address; its entry added. */
static int map_alloc(const char *fn, void **out, size_t size, int kind, unsigned flags) {
    bs_buf b = {0}, r = {0};
    bs_put_u64(&b, size);
    bs_put_str(&b, fn);
    uint32_t st = bs_call(BS_MALLOC, &b, &r);
    uint64_t a = bs_get_u64(&r, 0);
    free(b.p);
    free(r.p);
    if (st != 0) return bs_set((int) st);
    uint64_t len = (size + PAGE - 1) / PAGE * PAGE;
    void *m = a % PAGE == 0 ? mmap((void *) (uintptr_t) a, len, PROT_READ | PROT_WRITE,
                                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0) : MAP_FAILED;
    if (m != (void *) (uintptr_t) a) {
        if (m != MAP_FAILED) munmap(m, len);
        engine_free(a);
        char name[160];
        snprintf(name, sizeof name, "%s (device address 0x%llx is taken in this process, so no host "
                 "mapping can share it)", fn, (unsigned long long) a);
        return bs_unimplemented(name);
    }
    pthread_mutex_lock(&managed_lock);
    add_locked((managed){a, size, len, kind, flags});
    pthread_mutex_unlock(&managed_lock);
    *out = m;
    return cudaSuccess;
}

/* flags: cudaMemAttachGlobal (1) or cudaMemAttachHost (2); one memory, so both mean the same. */
int cudaMallocManaged(void **devPtr, size_t size, unsigned flags) {
    BS_STICKY();
    int c = bs_capture_check_unsafe("cudaMallocManaged");
    if (c) return c;
    if (devPtr == NULL || size == 0 || (flags != 1 && flags != 2)) {
        fprintf(stderr, "barrierscope: cudaMallocManaged: %s (returns cudaErrorInvalidValue)\n",
                devPtr == NULL ? "a null devPtr" : size == 0 ? "size 0" : "flags must be cudaMemAttachGlobal or cudaMemAttachHost");
        return bs_set(cudaErrorInvalidValue);
    }
    return map_alloc("cudaMallocManaged", devPtr, size, MANAGED, 0);
}

/* Pinned host memory (memory.c's cudaMallocHost and cudaHostAlloc): mapped like managed memory,
   so that a kernel given the host pointer (unified addressing) reaches the same bytes. */
int bs_host_alloc(const char *fn, void **ptr, size_t size, unsigned flags) {
    return map_alloc(fn, ptr, size ? size : 1, HOST, flags);
}

/* The pinned allocation or registered range holding p: 1 and its flags, or 0. */
int bs_host_flags(const void *p, unsigned *flags) {
    managed m;
    int kind = find(p, 1, &m);
    if (kind != HOST && kind != REGISTERED) return 0;
    if (flags) *flags = m.flags;
    return 1;
}

/* cudaHostRegister: the engine maps [p, p+size) at p itself (the program's addresses lie far
   from the engine's own), so a kernel given the host pointer reaches it as pinned memory is
   reached; from then on each launch copies it to the engine and back like pinned memory. A range
   overlapping any entry (registered, pinned or managed) is refused, as CUDA refuses a range part
   of which is already page-locked. */
int bs_host_register(void *p, size_t size, unsigned flags) {
    uint64_t a = (uint64_t) (uintptr_t) p;
    pthread_mutex_lock(&managed_lock);
    for (size_t i = 0; i < nlist; i++) {
        if (a < list[i].base + (list[i].size ? list[i].size : 1) && list[i].base < a + size) {
            pthread_mutex_unlock(&managed_lock);
            fprintf(stderr, "barrierscope: cudaHostRegister(%p, %zu): the range overlaps %s at 0x%llx (%llu bytes) "
                    "(returns cudaErrorHostMemoryAlreadyRegistered)\n", p, size,
                    list[i].kind == REGISTERED ? "a registered range" : list[i].kind == HOST ? "pinned memory" : "managed memory",
                    (unsigned long long) list[i].base, (unsigned long long) list[i].size);
            return bs_set(cudaErrorHostMemoryAlreadyRegistered);
        }
    }
    bs_buf b = {0}, r = {0};
    bs_put_u64(&b, a);
    bs_put_u64(&b, size);
    bs_put_u32(&b, (flags & 0x08) ? BS_MAP_HOST_READ_ONLY : 0);
    bs_put_str(&b, "cudaHostRegister");
    uint32_t st = bs_call(BS_MAP_HOST, &b, &r);
    free(b.p);
    free(r.p);
    if (st == 0) add_locked((managed){a, size, 0, REGISTERED, flags});
    pthread_mutex_unlock(&managed_lock);
    return st == 0 ? cudaSuccess : bs_set((int) st);
}

/* cudaHostUnregister: p must be a registered range's start (the driver asks for "the same" base
   address cuMemHostRegister was given). The engine unmaps it; the program's bytes stay as they are. */
int bs_host_unregister(void *p) {
    uint64_t a = (uint64_t) (uintptr_t) p;
    managed m;
    if (!take(a, REGISTERED, &m)) {
        fprintf(stderr, "barrierscope: cudaHostUnregister(%p): not the start of a range cudaHostRegister registered "
                        "(returns cudaErrorHostMemoryNotRegistered)\n", p);
        return bs_set(cudaErrorHostMemoryNotRegistered);
    }
    engine_free(a);
    return cudaSuccess;
}

/* Frees the entry starting at p if it is of `kind` and was mapped by map_alloc: 1 if it was. */
static int unmap_free(void *p, int kind) {
    uint64_t a = (uint64_t) (uintptr_t) p;
    managed m;
    if (!take(a, kind, &m)) return 0;
    munmap(p, m.mapped);
    engine_free(a);
    return 1;
}

/* cudaFree of a managed pointer (memory.c asks when the pointer is no cudaMalloc one): 1 if it was. */
int bs_free_managed(void *p) { return unmap_free(p, MANAGED); }

/* cudaFreeHost: 1 if p is a pinned allocation's start. */
int bs_free_host(void *p) { return unmap_free(p, HOST); }

/* What each allocation held when sent (push), compared with the engine's bytes after the launch
   (pull): only bytes the kernel changed are written back, so that a host thread's writes during
   the launch to bytes the kernel left alone survive, as on a GPU. The copy doubles the managed and
   pinned bytes held in this process while a launch runs (docs/runtime.md). */
typedef struct { uint64_t base, size; char *bytes; } sent;
struct bs_sent { sent *all; size_t n; }; /* one launch's copies: two threads may launch at once */

/* Writes into dst the bytes where result differs from what was sent, one byte at a time (a wider
   store would put back a neighbour's old bytes); the count written. */
static uint64_t merge_changed(char *dst, const char *was, const char *result, uint64_t n) {
    uint64_t changed = 0;
    for (uint64_t at = 0; at < n; at += 64) {
        uint64_t k = n - at < 64 ? n - at : 64;
        if (memcmp(was + at, result + at, k) == 0) continue;
        for (uint64_t i = at; i < at + k; i++) {
            if (was[i] != result[i]) {
                dst[i] = result[i];
                changed++;
            }
        }
    }
    return changed;
}

/* Before a launch: the engine gets every managed allocation's bytes as the host left them (sent
   from the shadow copy, so that what the engine got is exactly what pull compares with). */
struct bs_sent *bs_managed_push(void) {
    struct bs_sent *s = malloc(sizeof *s);
    pthread_mutex_lock(&managed_lock);
    sent *shadow = s ? calloc(nlist ? nlist : 1, sizeof *shadow) : NULL;
    if (shadow == NULL) bs_fatal("out of host memory");
    *s = (struct bs_sent){shadow, nlist};
    for (size_t i = 0; i < nlist; i++) {
        char *copy = malloc(list[i].size ? list[i].size : 1);
        if (copy == NULL) bs_fatal("out of host memory (a copy of managed or pinned memory for a launch)");
        memcpy(copy, (const char *) (uintptr_t) list[i].base, list[i].size);
        shadow[i] = (sent){list[i].base, list[i].size, copy};
        for (uint64_t at = 0; at < list[i].size; at += PIECE) {
            uint64_t n = list[i].size - at < PIECE ? list[i].size - at : PIECE;
            bs_buf b = {0}, r = {0};
            bs_put_u64(&b, list[i].base + at);
            bs_put(&b, copy + at, n);
            bs_call(BS_WRITE, &b, &r);
            free(b.p);
            free(r.p);
        }
    }
    pthread_mutex_unlock(&managed_lock);
    return s;
}

/* Whether [base, base+size) is still an entry (another thread may have freed it during the
   launch; while the lock is held it cannot be unmapped). */
static int still_there(uint64_t base, uint64_t size) {
    for (size_t i = 0; i < nlist; i++) if (list[i].base == base && list[i].size == size) return 1;
    return 0;
}

/* After a launch: the host mapping gets the bytes the kernel changed. */
void bs_managed_pull(struct bs_sent *s) {
    sent *shadow = s->all;
    size_t nshadow = s->n;
    pthread_mutex_lock(&managed_lock);
    for (size_t i = 0; i < nshadow; i++) {
        if (!still_there(shadow[i].base, shadow[i].size)) continue;
        for (uint64_t at = 0; at < shadow[i].size; at += PIECE) {
            uint64_t n = shadow[i].size - at < PIECE ? shadow[i].size - at : PIECE;
            bs_buf b = {0}, r = {0};
            bs_put_u64(&b, shadow[i].base + at);
            bs_put_u64(&b, n);
            if (bs_call(BS_READ, &b, &r) == 0 && r.len == n)
                merge_changed((char *) (uintptr_t) (shadow[i].base + at), shadow[i].bytes + at, r.p, n);
            free(b.p);
            free(r.p);
        }
    }
    for (size_t i = 0; i < nshadow; i++) free(shadow[i].bytes);
    pthread_mutex_unlock(&managed_lock);
    free(shadow);
    free(s);
}

/* One memory: where a page lives and who may read it changes nothing, so advice and prefetches are
   accepted and do nothing (the launch copies above happen whatever they say). */
int cudaMemPrefetchAsync(const void *devPtr, size_t count, ...) {
    BS_STICKY();
    (void) devPtr; (void) count;
    return cudaSuccess;
}
int cudaMemPrefetchAsync_ptsz(const void *devPtr, size_t count, ...) { return cudaMemPrefetchAsync(devPtr, count); }
int cudaMemAdvise(const void *devPtr, size_t count, ...) {
    BS_STICKY();
    (void) devPtr; (void) count;
    return cudaSuccess;
}

/* ---- __managed__ variables ---------------------------------------------------------------------- */

/* Pages of the engine's module variables mapped here: two __managed__ variables may share one. */
static uint64_t *var_pages;
static size_t nvar_pages;

static int page_mapped(uint64_t page) {
    for (size_t i = 0; i < nvar_pages; i++) if (var_pages[i] == page) return 1;
    return 0;
}

/* Maps the host side of a __managed__ variable the engine placed at [a, a+size) and fills it
   with the variable's bytes there (its initializer); 0 on success, -1 when an address is taken. */
int bs_managed_var(uint64_t a, uint64_t size) {
    pthread_mutex_lock(&managed_lock);
    for (uint64_t page = a / PAGE * PAGE; page < a + (size ? size : 1); page += PAGE) {
        if (page_mapped(page)) continue;
        void *m = mmap((void *) (uintptr_t) page, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
        if (m != (void *) (uintptr_t) page) {
            if (m != MAP_FAILED) munmap(m, PAGE);
            pthread_mutex_unlock(&managed_lock);
            return -1;
        }
        var_pages = realloc(var_pages, (nvar_pages + 1) * sizeof *var_pages);
        if (var_pages == NULL) bs_fatal("out of host memory");
        var_pages[nvar_pages++] = page;
    }
    list = realloc(list, (nlist + 1) * sizeof *list);
    if (list == NULL) bs_fatal("out of host memory");
    list[nlist++] = (managed){a, size, 0, MANAGED, 0}; /* mapped 0: never freed (cudaFree refuses it) */
    pthread_mutex_unlock(&managed_lock);
    bs_buf b = {0}, r = {0};
    bs_put_u64(&b, a);
    bs_put_u64(&b, size);
    if (bs_call(BS_READ, &b, &r) == 0 && r.len == size) memcpy((char *) (uintptr_t) a, r.p, size);
    free(b.p);
    free(r.p);
    return 0;
}

/* Bytes of managed and pinned allocations and registered ranges (cudaMemGetInfo counts them: they live in the engine's
   budget too). */
uint64_t bs_managed_bytes(void) {
    uint64_t n = 0;
    pthread_mutex_lock(&managed_lock);
    for (size_t i = 0; i < nlist; i++) if (list[i].mapped != 0 || list[i].kind == REGISTERED) n += list[i].size;
    pthread_mutex_unlock(&managed_lock);
    return n;
}
