/*
 * Events (docs/runtime.md, "Streams and events", "Graphs and stream capture"): an event records
 * the virtual cycles of all launches so far, or, on a capturing stream, the stream's dependency
 * set, which a stream that waits on it then depends on (a fork joins the capture; the join back
 * is checked by cudaStreamEndCapture, streams.c).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"

#define EVENT_MAGIC 0x45564E54u

#define DISABLE_TIMING 0x02u   /* cudaEventDisableTiming */
#define INTERPROCESS 0x04u     /* cudaEventInterprocess */
#define EXTERNAL 0x01u         /* cudaEventRecordExternal, cudaEventWaitExternal */

typedef struct {
    uint32_t magic;
    unsigned flags;            /* cudaEventCreateWithFlags' */
    int recorded;
    uint64_t at;
    unsigned long long cap_id; /* last recorded in this capture (0: outside any) */
    cudaGraphNode_t *deps;     /* the recording stream's dependency set then */
    size_t ndeps;
} bs_event;

static int bad_event(cudaEvent_t e) { return !bs_handle_live(e) || ((bs_event *) e)->magic != EVENT_MAGIC; }

int cudaEventCreate(cudaEvent_t *e) {
    BS_STICKY();
    if (e == NULL) return bs_set(cudaErrorInvalidValue);
    bs_event *ev = calloc(1, sizeof *ev);
    if (ev == NULL) return bs_set(cudaErrorMemoryAllocation);
    ev->magic = EVENT_MAGIC;
    bs_handle_add(ev);
    *e = ev;
    return cudaSuccess;
}

/* cudaEventBlockingSync changes how a host waits, and nothing waits here; cudaEventInterprocess
   needs cudaEventDisableTiming (as documented); such an event can be shared (ipc.c). */
int cudaEventCreateWithFlags(cudaEvent_t *e, unsigned flags) {
    if ((flags & ~0x7u) != 0 || ((flags & INTERPROCESS) && !(flags & DISABLE_TIMING))) return bs_set(cudaErrorInvalidValue);
    int r = cudaEventCreate(e);
    if (r == cudaSuccess) ((bs_event *) *e)->flags = flags;
    return r;
}

int bs_event_flags(cudaEvent_t e) { return bad_event(e) ? -1 : (int) ((bs_event *) e)->flags; }

int cudaEventDestroy(cudaEvent_t e) {
    BS_STICKY();
    if (bad_event(e)) return bs_set(cudaErrorInvalidResourceHandle);
    ((bs_event *) e)->magic = 0;
    bs_handle_remove(e);
    free(((bs_event *) e)->deps);
    free(e);
    return cudaSuccess;
}

int cudaEventRecord(cudaEvent_t e, cudaStream_t s) {
    BS_STICKY();
    if (bad_event(e)) return bs_set(cudaErrorInvalidResourceHandle);
    int bad;
    bs_stream *st = bs_stream_of(s, &bad);
    if (bad) return bs_set(cudaErrorInvalidResourceHandle);
    if (st == NULL) {
        int c = bs_capture_check_legacy("cudaEventRecord");
        if (c) return c;
    }
    bs_event *ev = e;
    pthread_mutex_lock(&bs_cap_lock);
    bs_capture *c = st ? st->cap : NULL;
    int invalid = c != NULL && c->status != STATUS_ACTIVE;
    if (c != NULL && !invalid) {
        ev->cap_id = c->id;
        free(ev->deps);
        ev->deps = malloc((st->ndeps ? st->ndeps : 1) * sizeof *ev->deps);
        if (ev->deps == NULL) bs_fatal("out of host memory");
        if (st->ndeps) memcpy(ev->deps, st->deps, st->ndeps * sizeof *ev->deps);
        ev->ndeps = st->ndeps;
    } else if (c == NULL) {
        ev->cap_id = 0;
        ev->at = bs_cycles();
        ev->recorded = 1;
    }
    pthread_mutex_unlock(&bs_cap_lock);
    return invalid ? bs_set(cudaErrorStreamCaptureInvalidated) : cudaSuccess;
}

/* With cudaEventRecordExternal a capturing stream records an event record node (the event is
   recorded when the graph runs to it); elsewhere, and without the flag, an ordinary record. */
int cudaEventRecordWithFlags(cudaEvent_t e, cudaStream_t s, unsigned flags) {
    if ((flags & ~EXTERNAL) != 0) return bs_set(cudaErrorInvalidValue);
    if (!(flags & EXTERNAL) || !bs_stream_capturing(s)) return cudaEventRecord(e, s);
    BS_STICKY();
    if (bad_event(e)) return bs_set(cudaErrorInvalidResourceHandle);
    bs_op op = {.type = BS_OP_EVENT_RECORD, .fn = "cudaGraphLaunch (an event record node)"};
    op.u.ev.event = e;
    return bs_issue(s, &op);
}

/* With cudaEventWaitExternal a capturing stream records an event wait node (on any event: no
   fork, no isolation rule); without it, or not capturing, the rules below. */
int cudaStreamWaitEvent(cudaStream_t s, cudaEvent_t e, unsigned flags) {
    BS_STICKY();
    if (bad_event(e)) return bs_set(cudaErrorInvalidResourceHandle);
    if ((flags & ~EXTERNAL) != 0) return bs_set(cudaErrorInvalidValue);
    if ((flags & EXTERNAL) && bs_stream_capturing(s)) {
        bs_op op = {.type = BS_OP_WAIT_EVENT, .fn = "cudaGraphLaunch (an event wait node)"};
        op.u.ev.event = e;
        return bs_issue(s, &op);
    }
    int bad;
    bs_stream *st = bs_stream_of(s, &bad);
    if (bad) return bs_set(cudaErrorInvalidResourceHandle);
    bs_event *ev = e;
    if (st == NULL && ev->cap_id == 0) return bs_capture_check_legacy("cudaStreamWaitEvent");
    int err = cudaSuccess;
    const char *why = NULL;
    pthread_mutex_lock(&bs_cap_lock);
    bs_capture *c = st ? st->cap : NULL;
    bs_capture *ec = ev->cap_id ? bs_capture_find(ev->cap_id) : NULL;
    if (ev->cap_id != 0 && ec == NULL && c != NULL) {
        err = cudaErrorStreamCaptureIsolation;
        why = "the event was last recorded in a capture that has ended; the capture is invalidated";
        c->status = STATUS_INVALIDATED;
    } else if (ev->cap_id != 0 && ec == NULL) {
        /* nothing to wait for: that capture's work runs only in graph launches, which end when issued */
    } else if (ec != NULL && st == NULL) {
        err = cudaErrorStreamCaptureImplicit;
        why = "the legacy default stream cannot join a capture; the capture is invalidated";
        ec->status = STATUS_INVALIDATED;
    } else if (ec != NULL && c == NULL) {
        bs_capture_join(ec, st); /* a fork: the stream joins the capture */
        bs_set_deps(st, ev->deps, ev->ndeps);
    } else if (ec != NULL && c == ec) {
        bs_add_deps(st, ev->deps, ev->ndeps);
    } else if (ec != NULL) {
        err = cudaErrorStreamCaptureMerge;
        why = "the stream takes part in another capture; both are invalidated";
        ec->status = c->status = STATUS_INVALIDATED;
    } else if (c != NULL) {
        err = cudaErrorStreamCaptureIsolation;
        why = "a capturing stream cannot wait on an event recorded outside the capture; the capture is invalidated";
        c->status = STATUS_INVALIDATED;
    }
    pthread_mutex_unlock(&bs_cap_lock);
    if (why != NULL) bs_say("cudaStreamWaitEvent", err, why);
    return err ? bs_set(err) : cudaSuccess;
}

/* An event last recorded in a capture has no time and cannot be waited for on the host. */
static int captured(const char *fn, bs_event *ev) {
    if (ev->cap_id == 0) return cudaSuccess;
    bs_say(fn, cudaErrorCapturedEvent, "the event was last recorded in a capturing stream");
    return bs_set(cudaErrorCapturedEvent);
}

int cudaEventSynchronize(cudaEvent_t e) {
    BS_STICKY();
    if (bad_event(e)) return bs_set(cudaErrorInvalidResourceHandle);
    return captured("cudaEventSynchronize", e);
}

int cudaEventQuery(cudaEvent_t e) {
    BS_STICKY();
    if (bad_event(e)) return bs_set(cudaErrorInvalidResourceHandle);
    return captured("cudaEventQuery", e);
}

int cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end_) {
    BS_STICKY();
    if (ms == NULL) return bs_set(cudaErrorInvalidValue);
    if (bad_event(start) || bad_event(end_)) return bs_set(cudaErrorInvalidResourceHandle);
    bs_event *a = start, *b = end_;
    int e = captured("cudaEventElapsedTime", a);
    if (e == 0) e = captured("cudaEventElapsedTime", b);
    if (e) return e;
    /* As documented: not recorded, or made with cudaEventDisableTiming, is cudaErrorInvalidResourceHandle. */
    if (!a->recorded || !b->recorded || ((a->flags | b->flags) & DISABLE_TIMING)) return bs_set(cudaErrorInvalidResourceHandle);
    *ms = (float) ((double) ((int64_t) (b->at - a->at)) / (double) BS_CLOCK_KHZ);
    return cudaSuccess;
}

/* A launch attribute's event (programmatic or launch completion), before the launch: as
   documented, a live event made with cudaEventDisableTiming, its record flags without
   cudaEventRecordExternal (only 0 is left). Else named, cudaErrorInvalidValue. */
int bs_launch_event_check(const char *fn, cudaEvent_t e, int flags) {
    const char *why = NULL;
    if (bad_event(e)) why = "a launch attribute's event is no live event";
    else if (!(((bs_event *) e)->flags & DISABLE_TIMING)) why = "a launch attribute's event must be created with cudaEventDisableTiming";
    else if (flags != 0) why = "a launch attribute's event record flags must be 0 (cudaEventRecordExternal is not accepted)";
    if (why == NULL) return cudaSuccess;
    bs_say(fn, cudaErrorInvalidValue, why);
    return bs_set(cudaErrorInvalidValue);
}

/* ---- graph event nodes ------------------------------------------------------------------------- */

/* Every node before this one in the launch has run to its end when it runs, so a wait has nothing
   to wait for, and a record takes the virtual cycles so far, as cudaEventRecord does. An event
   destroyed since the node was made: cudaErrorInvalidResourceHandle, named. */
int bs_event_op_run(const bs_op *op) {
    BS_STICKY();
    bs_event *ev = op->u.ev.event;
    if (bad_event(ev)) {
        bs_say(op->fn, cudaErrorInvalidResourceHandle, "the node's event was destroyed");
        return bs_set(cudaErrorInvalidResourceHandle);
    }
    if (op->type == BS_OP_EVENT_RECORD) {
        pthread_mutex_lock(&bs_cap_lock);
        ev->cap_id = 0;
        ev->at = bs_cycles();
        ev->recorded = 1;
        pthread_mutex_unlock(&bs_cap_lock);
    }
    return cudaSuccess;
}

static int event_node(const char *fn, cudaGraphNode_t *out, cudaGraph_t g, const cudaGraphNode_t *deps, size_t ndeps, cudaEvent_t e, int type) {
    if (bad_event(e)) return bs_set(cudaErrorInvalidValue);
    bs_op op = {.type = type, .fn = type == BS_OP_EVENT_RECORD ? "cudaGraphLaunch (an event record node)" : "cudaGraphLaunch (an event wait node)"};
    op.u.ev.event = e;
    return bs_graph_add_checked(fn, out, g, deps, ndeps, &op);
}

int cudaGraphAddEventRecordNode(cudaGraphNode_t *out, cudaGraph_t g, const cudaGraphNode_t *deps, size_t ndeps, cudaEvent_t e) {
    return event_node("cudaGraphAddEventRecordNode", out, g, deps, ndeps, e, BS_OP_EVENT_RECORD);
}

int cudaGraphAddEventWaitNode(cudaGraphNode_t *out, cudaGraph_t g, const cudaGraphNode_t *deps, size_t ndeps, cudaEvent_t e) {
    return event_node("cudaGraphAddEventWaitNode", out, g, deps, ndeps, e, BS_OP_WAIT_EVENT);
}

static int node_event(cudaGraphNode_t n, int type, cudaEvent_t *e) {
    if (bad_node(n) || n->op.type != type || e == NULL) return bs_set(cudaErrorInvalidValue);
    *e = n->op.u.ev.event;
    return cudaSuccess;
}

static int set_node_event(cudaGraphNode_t n, int type, cudaEvent_t e) {
    if (bad_node(n) || n->op.type != type || bad_event(e)) return bs_set(cudaErrorInvalidValue);
    n->op.u.ev.event = e;
    return cudaSuccess;
}

static int set_exec_event(const char *fn, cudaGraphExec_t x, cudaGraphNode_t n, int type, cudaEvent_t e) {
    if (bad_event(e)) return bs_set(cudaErrorInvalidValue);
    bs_exec_lock();
    bs_op *op = bs_exec_op(fn, x, n, type); /* a launch under way keeps its own version */
    if (op != NULL) op->u.ev.event = e;
    bs_exec_unlock();
    return op == NULL ? bs_set(cudaErrorInvalidValue) : cudaSuccess;
}

int cudaGraphEventRecordNodeGetEvent(cudaGraphNode_t n, cudaEvent_t *e) { return node_event(n, BS_OP_EVENT_RECORD, e); }
int cudaGraphEventWaitNodeGetEvent(cudaGraphNode_t n, cudaEvent_t *e) { return node_event(n, BS_OP_WAIT_EVENT, e); }
int cudaGraphEventRecordNodeSetEvent(cudaGraphNode_t n, cudaEvent_t e) { return set_node_event(n, BS_OP_EVENT_RECORD, e); }
int cudaGraphEventWaitNodeSetEvent(cudaGraphNode_t n, cudaEvent_t e) { return set_node_event(n, BS_OP_WAIT_EVENT, e); }

int cudaGraphExecEventRecordNodeSetEvent(cudaGraphExec_t x, cudaGraphNode_t n, cudaEvent_t e) {
    return set_exec_event("cudaGraphExecEventRecordNodeSetEvent", x, n, BS_OP_EVENT_RECORD, e);
}

int cudaGraphExecEventWaitNodeSetEvent(cudaGraphExec_t x, cudaGraphNode_t n, cudaEvent_t e) {
    return set_exec_event("cudaGraphExecEventWaitNodeSetEvent", x, n, BS_OP_WAIT_EVENT, e);
}
