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
 *
 * A launch moves only what changed (docs/runtime.md, "Moving mirrored memory"): each entry has a
 * shadow, the bytes the engine holds there as far as this process knows. Before a launch the
 * bytes where the host differs from the shadow are copied into it and sent (PUSH); the launch's
 * reply carries the ranges the kernel changed, which go into the host (where they differ from the
 * shadow: a byte another thread wrote meanwhile and the kernel left alone is kept) and the shadow.
 * So the shadow equals the engine's bytes after every launch; whenever the engine cannot vouch for
 * that (another process pushed or launched since, or a copy reached the bytes there) it says so
 * and this process sends every entry whole.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "cudart.h"
#include "protocol.h"

/* kind: BS_MANAGED, BS_PINNED (with the flags cudaHostAlloc was given) or BS_REGISTERED (the
   program's own memory, cudaHostRegister's flags); mapped: bytes mapped here (0 for a __managed__
   variable, whose pages may be shared, and for registered memory: never unmapped here);
   shadow: what the engine holds at [base, base+size), as far as this process knows; serial: the
   entry's number, in the order entries were made. */
typedef struct { uint64_t base, size, mapped; int kind; unsigned flags; char *shadow; uint64_t serial; } managed;
static pthread_mutex_t managed_lock = PTHREAD_MUTEX_INITIALIZER;
/* One launch of this process at a time: a shadow must not change between a push and its pull. */
static pthread_mutex_t launch_lock = PTHREAD_MUTEX_INITIALIZER;
static managed *list;
static size_t nlist;
static uint64_t serials;  /* entries made so far */
static int whole_next;    /* the next push sends every entry whole (a shadow may be out of date) */

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

/* Adds an entry whose shadow is `shadow` (NULL: zeros, as the engine's fresh memory); the caller holds managed_lock. */
static void add_locked(managed m, const void *shadow) {
    list = realloc(list, (nlist + 1) * sizeof *list);
    m.shadow = calloc(m.size ? m.size : 1, 1); /* pages stay unmapped until written: zeros cost nothing */
    if (list == NULL || m.shadow == NULL) bs_fatal("out of host memory");
    if (shadow) memcpy(m.shadow, shadow, m.size);
    m.serial = ++serials;
    list[nlist++] = m;
}

/* Takes out the entry of `kind` starting at a that this file may release (one map_alloc mapped,
   or a registered range), copied into *out: 1 if there was one. */
static int take(uint64_t a, int kind, managed *out) {
    int found = 0;
    pthread_mutex_lock(&managed_lock);
    for (size_t i = 0; i < nlist && !found; i++) {
        if (list[i].base == a && list[i].kind == kind && (list[i].mapped != 0 || kind == BS_REGISTERED)) {
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
    b.len = 0;
    if (st != 0) {
        free(b.p);
        free(r.p);
        return bs_set((int) st);
    }
    uint64_t len = (size + PAGE - 1) / PAGE * PAGE;
    void *m = a % PAGE == 0 ? mmap((void *) (uintptr_t) a, len, PROT_READ | PROT_WRITE,
                                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0) : MAP_FAILED;
    if (m != (void *) (uintptr_t) a) {
        if (m != MAP_FAILED) munmap(m, len);
        free(b.p);
        free(r.p);
        engine_free(a);
        char name[160];
        snprintf(name, sizeof name, "%s (device address 0x%llx is taken in this process, so no host "
                 "mapping can share it)", fn, (unsigned long long) a);
        return bs_unimplemented(name);
    }
    /* The engine reports what kernels change there from now on (MIRROR: u64 address, u64 bytes). */
    bs_put_u64(&b, a);
    bs_put_u64(&b, size);
    st = bs_call(BS_MIRROR, &b, &r);
    free(b.p);
    free(r.p);
    if (st != 0) {
        munmap(m, len);
        engine_free(a);
        return bs_set((int) st);
    }
    pthread_mutex_lock(&managed_lock);
    add_locked((managed){a, size, len, kind, flags, NULL, 0}, NULL);
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
    return map_alloc("cudaMallocManaged", devPtr, size, BS_MANAGED, 0);
}

/* Pinned host memory (memory.c's cudaMallocHost and cudaHostAlloc): mapped like managed memory,
   so that a kernel given the host pointer (unified addressing) reaches the same bytes. */
int bs_host_alloc(const char *fn, void **ptr, size_t size, unsigned flags) {
    return map_alloc(fn, ptr, size ? size : 1, BS_PINNED, flags);
}

/* The pinned allocation or registered range holding p: 1 and its flags, or 0. */
int bs_host_flags(const void *p, unsigned *flags) {
    managed m;
    int kind = find(p, 1, &m);
    if (kind != BS_PINNED && kind != BS_REGISTERED) return 0;
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
                    list[i].kind == BS_REGISTERED ? "a registered range" : list[i].kind == BS_PINNED ? "pinned memory" : "managed memory",
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
    if (st == 0) add_locked((managed){a, size, 0, BS_REGISTERED, flags, NULL, 0}, NULL); /* MAP_HOST mirrors it too */
    pthread_mutex_unlock(&managed_lock);
    return st == 0 ? cudaSuccess : bs_set((int) st);
}

/* cudaHostUnregister: p must be a registered range's start (the driver asks for "the same" base
   address cuMemHostRegister was given). The engine unmaps it; the program's bytes stay as they are. */
int bs_host_unregister(void *p) {
    uint64_t a = (uint64_t) (uintptr_t) p;
    managed m;
    if (!take(a, BS_REGISTERED, &m)) {
        fprintf(stderr, "barrierscope: cudaHostUnregister(%p): not the start of a range cudaHostRegister registered "
                        "(returns cudaErrorHostMemoryNotRegistered)\n", p);
        return bs_set(cudaErrorHostMemoryNotRegistered);
    }
    free(m.shadow);
    engine_free(a);
    return cudaSuccess;
}

/* Frees the entry starting at p if it is of `kind` and was mapped by map_alloc: 1 if it was. */
static int unmap_free(void *p, int kind) {
    uint64_t a = (uint64_t) (uintptr_t) p;
    managed m;
    if (!take(a, kind, &m)) return 0;
    munmap(p, m.mapped);
    free(m.shadow);
    engine_free(a);
    return 1;
}

/* cudaFree of a managed pointer (memory.c asks when the pointer is no cudaMalloc one): 1 if it was. */
int bs_free_managed(void *p) { return unmap_free(p, BS_MANAGED); }

/* cudaFreeHost: 1 if p is a pinned allocation's start. */
int bs_free_host(void *p) { return unmap_free(p, BS_PINNED); }

/* ---- around a launch: only what changed moves ------------------------------------------------- */

/* Two changed runs closer than this go as one range (a range's header is 12 bytes). */
#define GAP 16

/* Sends one PUSH (ranges: u64 address, u32 length, bytes) and empties b; *stale set when the
   engine answers that this process's shadows may be out of date. */
static void push_send(bs_buf *b, int *stale) {
    bs_buf r = {0};
    uint32_t st = bs_call(BS_PUSH, b, &r);
    if (st != 0) {
        fprintf(stderr, "barrierscope: the engine refused managed or pinned bytes before a launch (error %u); the next launch sends them whole\n", st);
        whole_next = 1;
    }
    if (bs_get_u32(&r, 0)) *stale = 1;
    free(r.p);
    b->len = 0;
}

/* Copies the host's bytes [from, to) of m into its shadow and adds them to the push, from the
   shadow (so the engine gets exactly what the shadow holds), in pieces of at most PIECE. */
static void push_run(managed *m, uint64_t from, uint64_t to, bs_buf *b, int *stale) {
    memcpy(m->shadow + from, (const char *) (uintptr_t) m->base + from, to - from);
    for (uint64_t at = from; at < to; at += PIECE) {
        uint64_t n = to - at < PIECE ? to - at : PIECE;
        if (b->len > 0 && b->len + 12 + n > PIECE) push_send(b, stale);
        bs_put_u64(b, m->base + at);
        bs_put_u32(b, (uint32_t) n);
        bs_put(b, m->shadow + at, n);
    }
}

/* Adds to the push every run of bytes where the host differs from m's shadow (64-byte blocks
   compared first; runs closer than GAP joined). */
static void push_changed(managed *m, bs_buf *b, int *stale) {
    const char *host = (const char *) (uintptr_t) m->base;
    uint64_t start = 0, end = 0;
    int open = 0;
    for (uint64_t at = 0; at < m->size; at += 64) {
        uint64_t k = m->size - at < 64 ? m->size - at : 64;
        if (memcmp(host + at, m->shadow + at, k) == 0) continue;
        for (uint64_t i = at; i < at + k; i++) {
            if (host[i] == m->shadow[i]) continue;
            if (open && i - end < GAP) {
                end = i + 1;
                continue;
            }
            if (open) push_run(m, start, end, b, stale);
            start = i;
            end = i + 1;
            open = 1;
        }
    }
    if (open) push_run(m, start, end, b, stale);
}

/* Before a launch: the engine gets every byte the host changed since it last saw them; every
   entry whole when a shadow may be out of date. The serial of the newest entry pushed. */
static uint64_t push(void) {
    pthread_mutex_lock(&managed_lock);
    uint64_t newest = serials;
    bs_buf b = {0};
    int stale = 0;
    if (nlist > 0) {
        for (size_t i = 0; i < nlist; i++) {
            if (whole_next) push_run(&list[i], 0, list[i].size, &b, &stale);
            else push_changed(&list[i], &b, &stale);
        }
        whole_next = 0;
        push_send(&b, &stale); /* always one: its answer says whether the shadows held */
        /* Another process pushed or launched in between: send everything whole, again if one did
           so during that too (a few times at most; the engine then holds a mix of the two, as the
           two processes' launches do on one device anyway, and says so at the next push). */
        for (int round = 0; stale && round < 4; round++) {
            stale = 0;
            for (size_t i = 0; i < nlist; i++) push_run(&list[i], 0, list[i].size, &b, &stale);
            push_send(&b, &stale);
        }
    }
    pthread_mutex_unlock(&managed_lock);
    free(b.p);
    return newest;
}

/* After a launch: the reply (u64 cycles, string, u32 n, n ranges: u64 address, u32 length,
   bytes) names every byte the kernel changed in mirrored memory. Each byte that differs from the
   shadow goes into the host mapping and the shadow, one byte at a time (a wider store would put
   back a neighbour another thread wrote meanwhile). A range in no entry pushed before the launch
   (freed or made meanwhile, or another process's) leaves some shadow unsure: the next push is whole. */
static void pull(const bs_buf *r, uint64_t newest) {
    if (r->len < 12) return;
    size_t at = 12 + (size_t) bs_get_u32(r, 8);
    if (at + 4 > r->len) return;
    uint32_t n = bs_get_u32(r, at);
    at += 4;
    pthread_mutex_lock(&managed_lock);
    for (uint32_t k = 0; k < n && at + 12 <= r->len; k++) {
        uint64_t a = bs_get_u64(r, at);
        uint64_t len = bs_get_u32(r, at + 8);
        const char *now = r->p + at + 12;
        at += 12 + len;
        if (at > r->len) break;
        managed *m = NULL;
        for (size_t i = 0; i < nlist && m == NULL; i++) {
            if (a >= list[i].base && a + len <= list[i].base + list[i].size && list[i].serial <= newest) m = &list[i];
        }
        if (m == NULL) {
            whole_next = 1;
            continue;
        }
        char *host = (char *) (uintptr_t) a, *was = m->shadow + (a - m->base);
        for (uint64_t i = 0; i < len; i++) {
            if (was[i] != now[i]) host[i] = was[i] = now[i];
        }
    }
    pthread_mutex_unlock(&managed_lock);
}

/* One launch request, with mirrored memory pushed before it and pulled after it (register.c),
   under launch_lock. */
uint32_t bs_managed_launch(const bs_buf *req, bs_buf *reply) {
    pthread_mutex_lock(&launch_lock);
    bs_cond_arm(1); /* one launch at a time: armed slots are this launch's graph's alone */
    uint64_t newest = push();
    uint32_t st = bs_call(BS_LAUNCH, req, reply);
    pull(reply, newest);
    bs_cond_arm(0);
    pthread_mutex_unlock(&launch_lock);
    return st;
}

/* fork(): the child has only the thread that forked, so a lock another thread held then (a launch
   in flight holds launch_lock and the wire's lock throughout) would stay locked in the child for
   good. fork takes them first, in the order they are always taken (so it waits for a launch to
   end), and both sides release them. The child's shadows are then no push's halfway state, and its
   first push is answered stale (docs/runtime.md, "Moving mirrored memory"). */
static void fork_prepare(void) {
    pthread_mutex_lock(&launch_lock);
    pthread_mutex_lock(&managed_lock);
    bs_wire_hold(1);
}
static void fork_release(void) {
    bs_wire_hold(0);
    pthread_mutex_unlock(&managed_lock);
    pthread_mutex_unlock(&launch_lock);
}
__attribute__((constructor)) static void fork_handlers(void) { pthread_atfork(fork_prepare, fork_release, fork_release); }

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
   with the variable's bytes there (its initializer, or what kernels wrote since), which are its
   shadow too; 0 on success, -1 when an address is taken. */
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
    bs_buf b = {0}, r = {0};
    bs_put_u64(&b, a);
    bs_put_u64(&b, size);
    if (bs_call(BS_READ, &b, &r) == 0 && r.len == size) memcpy((char *) (uintptr_t) a, r.p, size);
    bs_call(BS_MIRROR, &b, &r); /* the same request: u64 address, u64 bytes */
    /* mapped 0: never freed (cudaFree refuses it) */
    add_locked((managed){a, size, 0, BS_MANAGED, 0, NULL, 0}, (const char *) (uintptr_t) a);
    pthread_mutex_unlock(&managed_lock);
    free(b.p);
    free(r.p);
    return 0;
}

/* Bytes of managed and pinned allocations and registered ranges (cudaMemGetInfo counts them: they live in the engine's
   budget too). */
uint64_t bs_managed_bytes(void) {
    uint64_t n = 0;
    pthread_mutex_lock(&managed_lock);
    for (size_t i = 0; i < nlist; i++) if (list[i].mapped != 0 || list[i].kind == BS_REGISTERED) n += list[i].size;
    pthread_mutex_unlock(&managed_lock);
    return n;
}
