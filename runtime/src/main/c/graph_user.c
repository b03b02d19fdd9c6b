/*
 * User objects (docs/runtime.md, "Graphs and stream capture"): a host pointer and its destructor,
 * kept alive by references that the program, graphs and executable graphs own. As documented:
 * a graph's references are its own (cudaGraphRetainUserObject, or moved from the caller with
 * cudaGraphUserObjectMove), a clone and an executable graph instantiated from it take references of
 * their own, and destroying the holder releases them (an executable graph's once its launches have
 * ended); the destructor runs when the count reaches zero. CUDA runs destructors on an internal
 * thread and forbids them CUDA calls; here they run on the thread that dropped the last reference,
 * with no lock of ours held, which such a destructor cannot tell apart.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>

#include "graph.h"

#define USER_MAGIC 0x55534552u

struct bs_user_object {
    uint32_t magic;
    void *ptr;
    void (*destroy)(void *);
    unsigned long long refs;
};
typedef struct bs_user_object *cudaUserObject_t;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static int bad_object(cudaUserObject_t o) { return !bs_handle_live(o) || o->magic != USER_MAGIC; }

static int refuse(const char *fn, const char *why) {
    bs_say(fn, cudaErrorInvalidValue, why);
    return bs_set(cudaErrorInvalidValue);
}

/* Drops n references; the last one runs the destructor (outside the lock). */
static void drop(cudaUserObject_t o, unsigned long long n) {
    pthread_mutex_lock(&lock);
    o->refs -= n < o->refs ? n : o->refs;
    int last = o->refs == 0;
    if (last) {
        o->magic = 0;
        bs_handle_remove(o);
    }
    pthread_mutex_unlock(&lock);
    if (last) {
        o->destroy(o->ptr);
        free(o);
    }
}

static void add(cudaUserObject_t o, unsigned long long n) {
    pthread_mutex_lock(&lock);
    o->refs += n;
    pthread_mutex_unlock(&lock);
}

int cudaUserObjectCreate(cudaUserObject_t *out, void *ptr, void (*destroy)(void *), unsigned initial, unsigned flags) {
    const char *fn = "cudaUserObjectCreate";
    if (out == NULL || destroy == NULL) return refuse(fn, "a null pointer");
    if (flags != 1) return refuse(fn, "flags must be cudaUserObjectNoDestructorSync");
    if (initial == 0 || initial > INT_MAX) return refuse(fn, "initialRefcount must be 1 to INT_MAX");
    cudaUserObject_t o = calloc(1, sizeof *o);
    if (o == NULL) bs_fatal("out of host memory");
    *o = (struct bs_user_object){USER_MAGIC, ptr, destroy, initial};
    bs_handle_add(o);
    *out = o;
    return cudaSuccess;
}

int cudaUserObjectRetain(cudaUserObject_t o, unsigned count) {
    if (bad_object(o)) return refuse("cudaUserObjectRetain", "not a live user object");
    if (count == 0 || count > INT_MAX) return refuse("cudaUserObjectRetain", "count must be nonzero and not larger than INT_MAX");
    add(o, count);
    return cudaSuccess;
}

int cudaUserObjectRelease(cudaUserObject_t o, unsigned count) {
    if (bad_object(o)) return refuse("cudaUserObjectRelease", "not a live user object");
    if (count == 0 || count > INT_MAX) return refuse("cudaUserObjectRelease", "count must be nonzero and not larger than INT_MAX");
    drop(o, count);
    return cudaSuccess;
}

/* The holder's entry for o (added, with 0 references, if missing and make). */
static struct bs_uref *entry(struct bs_urefs *h, cudaUserObject_t o, int make) {
    for (size_t i = 0; i < h->n; i++) if (h->v[i].object == o) return &h->v[i];
    if (!make) return NULL;
    struct bs_uref *v = realloc(h->v, (h->n + 1) * sizeof *v);
    if (v == NULL) bs_fatal("out of host memory");
    h->v = v;
    h->v[h->n] = (struct bs_uref){o, 0};
    return &h->v[h->n++];
}

int cudaGraphRetainUserObject(cudaGraph_t g, cudaUserObject_t o, unsigned count, unsigned flags) {
    const char *fn = "cudaGraphRetainUserObject";
    if (bad_graph(g) || bad_object(o)) return refuse(fn, "not a live graph and user object");
    if (count == 0 || count > INT_MAX) return refuse(fn, "count must be nonzero and not larger than INT_MAX");
    if (flags & ~1u) return refuse(fn, "flags must be 0 or cudaGraphUserObjectMove");
    if (!(flags & 1u)) add(o, count); /* cudaGraphUserObjectMove: the caller's references become the graph's */
    entry(&g->urefs, o, 1)->count += count;
    return cudaSuccess;
}

int cudaGraphReleaseUserObject(cudaGraph_t g, cudaUserObject_t o, unsigned count) {
    const char *fn = "cudaGraphReleaseUserObject";
    if (bad_graph(g) || bad_object(o)) return refuse(fn, "not a live graph and user object");
    if (count == 0 || count > INT_MAX) return refuse(fn, "count must be nonzero and not larger than INT_MAX");
    struct bs_uref *r = entry(&g->urefs, o, 0);
    if (r == NULL || r->count < count) return refuse(fn, "the graph does not own that many references to the object");
    r->count -= count;
    drop(o, count);
    return cudaSuccess;
}

void bs_urefs_copy(struct bs_urefs *to, const struct bs_urefs *from) {
    for (size_t i = 0; i < from->n; i++) {
        if (from->v[i].count == 0) continue;
        add(from->v[i].object, from->v[i].count);
        entry(to, from->v[i].object, 1)->count += from->v[i].count;
    }
}

void bs_urefs_release(struct bs_urefs *h) {
    struct bs_uref *v = h->v;
    size_t n = h->n;
    h->v = NULL;
    h->n = 0;
    for (size_t i = 0; i < n; i++) if (v[i].count) drop(v[i].object, v[i].count);
    free(v);
}
