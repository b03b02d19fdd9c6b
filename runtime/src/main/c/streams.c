/*
 * Streams and stream capture (events: events.c) (docs/runtime.md, "Graphs and stream capture").
 *
 * Every piece of stream work (bs_op) is issued through bs_issue: on a stream that is not
 * capturing it runs to its end at once, whatever the stream (so streams are in order and one at a
 * time); on a capturing stream it is recorded as a node of the capture's graph, depending on the
 * stream's current dependency set, and does not run. A capture sequence starts on one stream
 * (cudaStreamBeginCapture); another stream joins it by waiting on an event recorded in it, and
 * must be joined back (its last nodes reachable from the origin stream's) before
 * cudaStreamEndCapture. The rules and errors are the CUDA runtime API's (cuda_runtime_api.h:
 * cudaStreamBeginCapture, cudaThreadExchangeStreamCaptureMode, cudaStreamIsCapturing,
 * cudaStreamGetCaptureInfo; driver_types.h for the error codes).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"

#define NON_BLOCKING 0x1u /* cudaStreamNonBlocking */
enum { MODE_GLOBAL = 0, MODE_THREAD_LOCAL = 1, MODE_RELAXED = 2 };

/* All capture state is under one lock (graphs being captured into included). */
pthread_mutex_t bs_cap_lock = PTHREAD_MUTEX_INITIALIZER;
static bs_capture **active;
static size_t nactive;
static unsigned long long next_id = 1;
static __thread int thread_mode = MODE_GLOBAL;
static __thread bs_stream per_thread = {.magic = STREAM_MAGIC};

bs_stream *bs_stream_of(cudaStream_t s, int *bad) {
    *bad = 0;
    uintptr_t h = (uintptr_t) s;
    if (h == 0 || h == 1) return NULL;
    if (h == 2) return &per_thread;
    if (!bs_handle_live(s) || ((bs_stream *) s)->magic != STREAM_MAGIC) {
        *bad = 1;
        return NULL;
    }
    return s;
}

void bs_say(const char *fn, int e, const char *why) {
    fprintf(stderr, "barrierscope: %s: %s (returns %s)\n", fn, why, cudaGetErrorName(e));
    fflush(stderr);
}

void bs_set_deps(bs_stream *s, cudaGraphNode_t const *deps, size_t n) {
    if (n > s->capdeps) {
        s->deps = realloc(s->deps, n * sizeof *s->deps);
        s->edges = realloc(s->edges, n * 8);
        if (s->deps == NULL || s->edges == NULL) bs_fatal("out of host memory");
        s->capdeps = n;
    }
    if (n) memmove(s->deps, deps, n * sizeof *deps);
    if (n) memset(s->edges, 0, n * 8);
    s->ndeps = n;
}

void bs_add_deps(bs_stream *s, cudaGraphNode_t const *deps, size_t n) {
    for (size_t i = 0; i < n; i++) {
        int have = 0;
        for (size_t j = 0; j < s->ndeps && !have; j++) have = s->deps[j] == deps[i];
        if (have) continue;
        cudaGraphNode_t *all = malloc((s->ndeps + 1) * sizeof *all);
        if (all == NULL) bs_fatal("out of host memory");
        if (s->ndeps) memcpy(all, s->deps, s->ndeps * sizeof *all);
        all[s->ndeps] = deps[i];
        bs_set_deps(s, all, s->ndeps + 1);
        free(all);
    }
}

static void thread_exit(void *arg);
static pthread_key_t exit_key;
static void make_exit_key(void) { pthread_key_create(&exit_key, thread_exit); }

void bs_capture_join(bs_capture *c, bs_stream *s) {
    c->streams = realloc(c->streams, (c->nstreams + 1) * sizeof *c->streams);
    if (c->streams == NULL) bs_fatal("out of host memory");
    c->streams[c->nstreams++] = s;
    s->cap = c;
    if (s == &per_thread) { /* it dies with its thread: thread_exit then takes it out */
        static pthread_once_t once = PTHREAD_ONCE_INIT;
        pthread_once(&once, make_exit_key);
        pthread_setspecific(exit_key, s);
    }
}

/* The capture ends: its streams leave it, it leaves the active list (the graph is the caller's). */
static void end(bs_capture *c) {
    for (size_t i = 0; i < c->nstreams; i++) {
        if (c->streams[i]->cap == c) {
            c->streams[i]->cap = NULL;
            c->streams[i]->ndeps = 0;
        }
    }
    for (size_t i = 0; i < nactive; i++) {
        if (active[i] == c) {
            memmove(active + i, active + i + 1, (nactive - i - 1) * sizeof *active);
            nactive--;
            break;
        }
    }
    free(c->streams);
    free(c);
}

/* A thread ends while its default stream takes part in a capture: a capture begun there is over
   (its graph freed: no thread can end it now), else the capture is invalidated and the stream
   leaves it, so no capture keeps a pointer into the ended thread. */
static void thread_exit(void *arg) {
    bs_stream *s = arg;
    pthread_mutex_lock(&bs_cap_lock);
    bs_capture *c = s->cap;
    if (c != NULL && c->origin == s) {
        c->graph->capturing = 0;
        if (!c->into) bs_graph_free(c->graph);
        end(c);
    } else if (c != NULL) {
        size_t w = 0;
        for (size_t i = 0; i < c->nstreams; i++) if (c->streams[i] != s) c->streams[w++] = c->streams[i];
        c->nstreams = w;
        c->status = STATUS_INVALIDATED;
        s->cap = NULL;
    }
    pthread_mutex_unlock(&bs_cap_lock);
    free(s->deps);
    free(s->edges);
}

bs_capture *bs_capture_find(unsigned long long id) {
    for (size_t i = 0; i < nactive; i++) if (active[i]->id == id) return active[i];
    return NULL;
}

/* Whether a capture of a blocking stream is going on: the legacy stream then may not be used. */
static int legacy_blocked(int invalidate) {
    int any = 0;
    for (size_t i = 0; i < nactive; i++) {
        for (size_t j = 0; j < active[i]->nstreams; j++) {
            bs_stream *s = active[i]->streams[j];
            if (s->cap == active[i] && !(s->flags & NON_BLOCKING)) {
                any = 1;
                if (invalidate) active[i]->status = STATUS_INVALIDATED;
                break;
            }
        }
    }
    return any;
}

int bs_capture_check_legacy(const char *fn) {
    pthread_mutex_lock(&bs_cap_lock);
    int blocked = legacy_blocked(1);
    pthread_mutex_unlock(&bs_cap_lock);
    if (!blocked) return cudaSuccess;
    bs_say(fn, cudaErrorStreamCaptureImplicit, "work on the legacy default stream while a blocking stream is capturing; "
        "the capture is invalidated");
    return bs_set(cudaErrorStreamCaptureImplicit);
}

/* cudaThreadExchangeStreamCaptureMode's rule for "potentially unsafe" calls (cudaMalloc, ...). */
int bs_capture_check_unsafe(const char *fn) {
    if (thread_mode == MODE_RELAXED) return cudaSuccess;
    int prohibited = 0;
    pthread_mutex_lock(&bs_cap_lock);
    pthread_t self = pthread_self();
    for (size_t i = 0; i < nactive; i++) {
        bs_capture *c = active[i];
        int mine = pthread_equal(c->thread, self);
        if ((mine && c->mode != MODE_RELAXED) || (!mine && thread_mode == MODE_GLOBAL && c->mode == MODE_GLOBAL)) {
            c->status = STATUS_INVALIDATED;
            prohibited = 1;
        }
    }
    pthread_mutex_unlock(&bs_cap_lock);
    if (!prohibited) return cudaSuccess;
    bs_say(fn, cudaErrorStreamCaptureUnsupported, "not permitted while a stream is capturing (capture mode global or "
        "thread-local; see cudaThreadExchangeStreamCaptureMode); the capture is invalidated");
    return bs_set(cudaErrorStreamCaptureUnsupported);
}

/* Synchronous copies and memsets: legacy-stream work, and "potentially unsafe". */
int bs_capture_check_sync(const char *fn) {
    int e = bs_capture_check_legacy(fn);
    return e ? e : bs_capture_check_unsafe(fn);
}

int bs_issue(cudaStream_t stream, bs_op *op) {
    int e = bs_sticky(), bad;
    bs_stream *s = bs_stream_of(stream, &bad);
    if (e == 0 && bad) e = bs_set(cudaErrorInvalidResourceHandle);
    if (e == 0 && s == NULL) e = bs_capture_check_legacy(op->fn);
    if (e != 0) {
        bs_op_free(op);
        return e;
    }
    pthread_mutex_lock(&bs_cap_lock);
    bs_capture *c = s ? s->cap : NULL;
    int status = c ? c->status : STATUS_NONE;
    if (status == STATUS_ACTIVE) {
        cudaGraphNode_t n = bs_graph_add(c->graph, s->deps, s->ndeps, op); /* the node owns op's params now */
        bs_set_deps(s, &n, 1);
    }
    pthread_mutex_unlock(&bs_cap_lock);
    if (status == STATUS_ACTIVE) return cudaSuccess;
    if (status == STATUS_INVALIDATED) {
        bs_op_free(op);
        return bs_set(cudaErrorStreamCaptureInvalidated);
    }
    e = bs_run_op(op);
    bs_op_free(op);
    return e;
}

int bs_stream_uncapturable(cudaStream_t stream, const char *fn) {
    BS_STICKY();
    int bad;
    bs_stream *s = bs_stream_of(stream, &bad);
    if (bad) return bs_set(cudaErrorInvalidResourceHandle);
    if (s == NULL) return bs_capture_check_legacy(fn);
    pthread_mutex_lock(&bs_cap_lock);
    bs_capture *c = s->cap;
    if (c != NULL) c->status = STATUS_INVALIDATED;
    pthread_mutex_unlock(&bs_cap_lock);
    if (c == NULL) return cudaSuccess;
    char name[160];
    snprintf(name, sizeof name, "%s on a capturing stream (the capture is invalidated)", fn);
    return bs_unimplemented(name);
}

int bs_stream_capturing(cudaStream_t stream) {
    int bad;
    bs_stream *s = bs_stream_of(stream, &bad);
    pthread_mutex_lock(&bs_cap_lock);
    int yes = s != NULL && s->cap != NULL;
    pthread_mutex_unlock(&bs_cap_lock);
    return yes;
}

/* ---- streams ---------------------------------------------------------------------------------- */

int cudaStreamCreateWithFlags(cudaStream_t *s, unsigned flags) {
    BS_STICKY();
    if (s == NULL) return bs_set(cudaErrorInvalidValue);
    if (flags & ~1u) { /* cudaStreamDefault or cudaStreamNonBlocking: anything else is no stream flag */
        fprintf(stderr, "barrierscope: cudaStreamCreateWithFlags: flags 0x%x are not cudaStreamDefault or cudaStreamNonBlocking "
                        "(returns cudaErrorInvalidValue)\n", flags);
        return bs_set(cudaErrorInvalidValue);
    }
    bs_stream *st = calloc(1, sizeof *st);
    if (st == NULL) return bs_set(cudaErrorMemoryAllocation);
    st->magic = STREAM_MAGIC;
    st->flags = flags;
    bs_handle_add(st);
    *s = st;
    return cudaSuccess;
}

int cudaStreamCreate(cudaStream_t *s) { return cudaStreamCreateWithFlags(s, 0); }

int cudaStreamDestroy(cudaStream_t s) {
    BS_STICKY();
    if (!bs_handle_live(s) || ((bs_stream *) s)->magic != STREAM_MAGIC) return bs_set(cudaErrorInvalidResourceHandle);
    bs_stream *st = s;
    pthread_mutex_lock(&bs_cap_lock); /* another thread's cudaStreamWaitEvent may be joining it to a capture */
    int in_capture = st->cap != NULL;
    if (!in_capture) {
        st->magic = 0;
        bs_handle_remove(st);
    }
    pthread_mutex_unlock(&bs_cap_lock);
    if (in_capture) {
        bs_say("cudaStreamDestroy", cudaErrorIllegalState, "the stream is capturing; end the capture first");
        return bs_set(cudaErrorIllegalState);
    }
    free(st->deps);
    free(st->edges);
    free(st);
    return cudaSuccess;
}

int cudaStreamGetFlags(cudaStream_t s, unsigned *flags) {
    int bad;
    bs_stream *st = bs_stream_of(s, &bad);
    if (bad) return bs_set(cudaErrorInvalidResourceHandle);
    if (flags == NULL) return bs_set(cudaErrorInvalidValue);
    *flags = st ? st->flags : 0;
    return cudaSuccess;
}

/* Waiting for a capturing stream, or for the legacy stream while a blocking one captures, would
   wait for work that never runs: refused, and the capture is invalidated. */
static int wait_for(cudaStream_t s, const char *fn) {
    BS_STICKY();
    int bad;
    bs_stream *st = bs_stream_of(s, &bad);
    if (bad) return bs_set(cudaErrorInvalidResourceHandle);
    if (st == NULL) return bs_capture_check_legacy(fn);
    pthread_mutex_lock(&bs_cap_lock);
    bs_capture *c = st->cap;
    if (c != NULL) c->status = STATUS_INVALIDATED;
    pthread_mutex_unlock(&bs_cap_lock);
    if (c == NULL) return cudaSuccess;
    bs_say(fn, cudaErrorStreamCaptureUnsupported, "the stream is capturing; the capture is invalidated");
    return bs_set(cudaErrorStreamCaptureUnsupported);
}

int cudaStreamSynchronize(cudaStream_t s) { return wait_for(s, "cudaStreamSynchronize"); }
int cudaStreamQuery(cudaStream_t s) { return wait_for(s, "cudaStreamQuery"); }

int cudaDeviceSynchronize(void) {
    BS_STICKY();
    pthread_mutex_lock(&bs_cap_lock);
    size_t n = nactive;
    for (size_t i = 0; i < nactive; i++) active[i]->status = STATUS_INVALIDATED;
    pthread_mutex_unlock(&bs_cap_lock);
    if (n == 0) return cudaSuccess;
    bs_say("cudaDeviceSynchronize", cudaErrorStreamCaptureUnsupported, "a stream is capturing; every capture is invalidated");
    return bs_set(cudaErrorStreamCaptureUnsupported);
}

/* A host function runs when the stream reaches it: at once, or as a host node of the capture. */
int cudaLaunchHostFunc(cudaStream_t s, void (*fn)(void *), void *data) {
    if (fn == NULL) return bs_set(cudaErrorInvalidValue);
    bs_op op = {.type = BS_OP_HOST, .fn = "cudaLaunchHostFunc"};
    op.u.host.fn = fn;
    op.u.host.data = data;
    return bs_issue(s, &op);
}

/* ---- capture ---------------------------------------------------------------------------------- */

/* A capture into a new graph, or (into != NULL) into the program's graph, its first nodes
   depending on deps (checked by the caller to be into's). */
static int begin(const char *fn, cudaStream_t s, int mode, cudaGraph_t into, const cudaGraphNode_t *deps, size_t ndeps) {
    BS_STICKY();
    int bad;
    bs_stream *st = bs_stream_of(s, &bad);
    if (bad) return bs_set(cudaErrorInvalidResourceHandle);
    if (st == NULL) {
        bs_say(fn, cudaErrorStreamCaptureUnsupported, "the legacy default stream cannot capture");
        return bs_set(cudaErrorStreamCaptureUnsupported);
    }
    if (mode < MODE_GLOBAL || mode > MODE_RELAXED) return bs_set(cudaErrorInvalidValue);
    pthread_mutex_lock(&bs_cap_lock);
    int already = st->cap != NULL, busy = into != NULL && into->capturing;
    if (!already && !busy) {
        bs_capture *c = calloc(1, sizeof *c);
        if (c == NULL) bs_fatal("out of host memory");
        if (into != NULL) c->graph = into;
        else if (bs_graph_new(&c->graph) != 0) bs_fatal("out of host memory");
        c->into = into != NULL;
        c->graph->capturing = 1;
        c->id = next_id++;
        c->mode = mode;
        c->status = STATUS_ACTIVE;
        c->thread = pthread_self();
        c->origin = st;
        bs_capture_join(c, st);
        bs_set_deps(st, deps, ndeps);
        active = realloc(active, (nactive + 1) * sizeof *active);
        if (active == NULL) bs_fatal("out of host memory");
        active[nactive++] = c;
    }
    pthread_mutex_unlock(&bs_cap_lock);
    if (!already && !busy) return cudaSuccess;
    bs_say(fn, cudaErrorInvalidValue, already ? "the stream is already capturing" : "another capture is capturing into the graph");
    return bs_set(cudaErrorInvalidValue);
}

int cudaStreamBeginCapture(cudaStream_t s, int mode) { return begin("cudaStreamBeginCapture", s, mode, NULL, NULL, 0); }

/* The captured work is added to the program's graph g, the first of it depending on deps (nodes
   of g; edge data all zero: programmatic edges are not implemented). cudaStreamEndCapture gives
   g back; an invalidated capture leaves g with the nodes it added until then. */
int cudaStreamBeginCaptureToGraph(cudaStream_t s, cudaGraph_t g, const cudaGraphNode_t *deps, const void *edges, size_t ndeps, int mode) {
    const char *fn = "cudaStreamBeginCaptureToGraph";
    const char *why = NULL;
    if (bad_graph(g) || (ndeps > 0 && deps == NULL)) why = "a null or destroyed graph, or a null dependency list";
    for (size_t i = 0; i < ndeps && why == NULL; i++) {
        if (bad_node(deps[i]) || deps[i]->graph != g) why = "a dependency that is not a node of the graph";
        for (size_t j = 0; j < i && why == NULL; j++) if (deps[j] == deps[i]) why = "a dependency listed twice";
    }
    for (size_t i = 0; edges != NULL && i < 8 * ndeps && why == NULL; i++) {
        if (((const unsigned char *) edges)[i] != 0) return bs_unimplemented("cudaStreamBeginCaptureToGraph with edge data (programmatic edges)");
    }
    if (why != NULL) {
        bs_say(fn, cudaErrorInvalidValue, why);
        return bs_set(cudaErrorInvalidValue);
    }
    return begin(fn, s, mode, g, deps, ndeps);
}

int cudaStreamEndCapture(cudaStream_t s, cudaGraph_t *pGraph) {
    int bad;
    bs_stream *st = bs_stream_of(s, &bad);
    if (bad) return bs_set(cudaErrorInvalidResourceHandle);
    if (pGraph == NULL) return bs_set(cudaErrorInvalidValue);
    pthread_mutex_lock(&bs_cap_lock);
    bs_capture *c = st ? st->cap : NULL;
    int e = cudaSuccess;
    const char *why = NULL;
    if (c == NULL) {
        e = cudaErrorIllegalState;
        why = "the stream is not capturing";
    } else if (c->origin != st) {
        e = cudaErrorStreamCaptureUnmatched;
        why = "the capture was begun on another stream; it is invalidated";
        c->status = STATUS_INVALIDATED;
    } else if (c->mode != MODE_RELAXED && !pthread_equal(c->thread, pthread_self())) {
        e = cudaErrorStreamCaptureWrongThread;
        why = "the capture was begun by another thread (and not in relaxed mode)";
    } else {
        if (c->status == STATUS_INVALIDATED) {
            e = cudaErrorStreamCaptureInvalidated;
        } else {
            for (size_t i = 1; i < c->nstreams && e == 0; i++) {
                bs_stream *o = c->streams[i];
                if (o->cap == c && !bs_graph_all_reach(c->graph, st->deps, st->ndeps, o->deps, o->ndeps)) {
                    e = cudaErrorStreamCaptureUnjoined;
                    why = "a stream that joined the capture (by waiting on its event) was not joined back: "
                          "record an event on it and make the origin stream wait on that";
                }
            }
        }
        *pGraph = NULL;
        c->graph->capturing = 0;
        if (e == 0) *pGraph = c->graph;
        else if (!c->into) bs_graph_free(c->graph);
        end(c);
    }
    pthread_mutex_unlock(&bs_cap_lock);
    if (why != NULL) bs_say("cudaStreamEndCapture", e, why);
    return e ? bs_set(e) : cudaSuccess;
}

static int capture_info(cudaStream_t s, int *status, unsigned long long *id, cudaGraph_t *graph,
                        const cudaGraphNode_t **deps, const void **edges, size_t *ndeps) {
    int bad;
    bs_stream *st = bs_stream_of(s, &bad);
    if (bad) return bs_set(cudaErrorInvalidResourceHandle);
    if (status == NULL || (edges != NULL && deps == NULL)) return bs_set(cudaErrorInvalidValue);
    pthread_mutex_lock(&bs_cap_lock);
    int implicit = st == NULL && legacy_blocked(0);
    bs_capture *c = st ? st->cap : NULL;
    if (!implicit) {
        *status = c == NULL ? STATUS_NONE : c->status;
        if (c != NULL && c->status == STATUS_ACTIVE) {
            if (id) *id = c->id;
            if (graph) *graph = c->graph;
            if (deps) *deps = st->deps;
            if (edges) *edges = st->edges;
            if (ndeps) *ndeps = st->ndeps;
        }
    }
    pthread_mutex_unlock(&bs_cap_lock);
    return implicit ? bs_set(cudaErrorStreamCaptureImplicit) : cudaSuccess;
}

int cudaStreamIsCapturing(cudaStream_t s, int *status) {
    return capture_info(s, status, NULL, NULL, NULL, NULL, NULL);
}

int cudaStreamGetCaptureInfo(cudaStream_t s, int *status, unsigned long long *id, cudaGraph_t *graph,
                             const cudaGraphNode_t **deps, const void **edges, size_t *ndeps) {
    return capture_info(s, status, id, graph, deps, edges, ndeps);
}

/* flags: cudaStreamAddCaptureDependencies (0) or cudaStreamSetCaptureDependencies (1). The nodes
   must be the capture graph's (else cudaErrorInvalidValue, the set unchanged); each counts once. */
int cudaStreamUpdateCaptureDependencies(cudaStream_t s, cudaGraphNode_t *deps, const void *edges, size_t n, unsigned flags) {
    (void) edges;
    int bad;
    bs_stream *st = bs_stream_of(s, &bad);
    if (bad) return bs_set(cudaErrorInvalidResourceHandle);
    if ((n > 0 && deps == NULL) || flags > 1) return bs_set(cudaErrorInvalidValue);
    pthread_mutex_lock(&bs_cap_lock);
    bs_capture *c = st ? st->cap : NULL;
    int foreign = 0;
    for (size_t i = 0; c != NULL && i < n && !foreign; i++) foreign = bad_node(deps[i]) || deps[i]->graph != c->graph;
    if (c != NULL && !foreign) {
        if (flags == 1) st->ndeps = 0;
        bs_add_deps(st, deps, n);
    }
    pthread_mutex_unlock(&bs_cap_lock);
    if (c == NULL) return bs_set(cudaErrorIllegalState);
    if (!foreign) return cudaSuccess;
    bs_say("cudaStreamUpdateCaptureDependencies", cudaErrorInvalidValue, "a node that is not in the graph being captured");
    return bs_set(cudaErrorInvalidValue);
}

int cudaThreadExchangeStreamCaptureMode(int *mode) {
    if (mode == NULL || *mode < MODE_GLOBAL || *mode > MODE_RELAXED) return bs_set(cudaErrorInvalidValue);
    int old = thread_mode;
    thread_mode = *mode;
    *mode = old;
    return cudaSuccess;
}
