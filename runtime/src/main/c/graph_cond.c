/*
 * Conditional graph nodes (docs/runtime.md, "Conditional nodes"): cudaGraphConditionalHandleCreate,
 * cudaGraphAddNode with cudaGraphNodeTypeConditional (IF, WHILE, SWITCH), and their run in a
 * graph launch. A handle is the device address of a 16-byte slot, four u32 words: magic "COND",
 * armed, value, assigned. The engine's cudaGraphSetConditional (docs/semantics.md section 18)
 * writes value and assigned from a kernel, only while armed; a launch takes the slots of the
 * handles its conditional nodes use, applies their defaults (cudaGraphCondAssignDefault), arms them
 * around each of its own kernels only (bs_cond_arm), and gives them back when it ends. A
 * condition is read from the slot each time a node evaluates it.
 * Two executable graphs made from one graph (or its clones, or graphs holding it as a child)
 * share its handles, and each launch has a condition value of its own: a launch takes its
 * handles' slots for its whole run, so another launch using one of them waits until it ends.
 * External semaphore nodes are refused by name at the end of this file.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graph.h"
#include "protocol.h"

int cudaGraphClone(cudaGraph_t *out, cudaGraph_t g);

#define SLOT_MAGIC 0x444E4F43u /* "COND" */
enum { COND_IF = 0, COND_WHILE = 1, COND_SWITCH = 2 };
/* The most bodies a SWITCH may have here (CUDA documents no bound): each is a graph made when the
   node is, so a garbage size (an unset field) is refused rather than exhausting host memory. */
#define SWITCH_MAX 65536u

/* Every handle made (never destroyed: CUDA has no call for it). One list for every graph, and
   CUDA lets threads work on different graphs at once, so it has a lock, as the library's other
   registries do (pool.c's graph allocations, handles.c). */
static pthread_mutex_t cond_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond_given_back = PTHREAD_COND_INITIALIZER; /* a launch gave its slots back */
static struct handle {
    uint64_t addr;
    unsigned dflt, flags;
    unsigned long long graph_id; /* the graph it was made for */
    int taken; pthread_t by;     /* its slot held by a launch (on thread by) */
    struct bs_node *node; unsigned long long node_id; /* the conditional node using it (live if both match) */
} *handles;
static size_t nhandles;

/* cond_lock held. */
static struct handle *find(uint64_t h) {
    for (size_t i = 0; i < nhandles; i++) if (handles[i].addr == h) return &handles[i];
    return NULL;
}

static int slot_write(uint64_t h, const uint32_t w[4]) { return bs_copy("cudaGraphLaunch", (void *) (uintptr_t) h, w, 16, 1); }

int cudaGraphConditionalHandleCreate(uint64_t *out, cudaGraph_t g, unsigned dflt, unsigned flags) {
    BS_STICKY();
    if (out == NULL || bad_graph(g) || (flags & ~1u)) {
        bs_say("cudaGraphConditionalHandleCreate", cudaErrorInvalidValue,
               flags & ~1u ? "flags must be 0 or cudaGraphCondAssignDefault" : "a null handle pointer or graph");
        return bs_set(cudaErrorInvalidValue);
    }
    void *p;
    int e = bs_malloc("cudaGraphConditionalHandleCreate", &p, 16);
    if (e) return e;
    uint32_t w[4] = {SLOT_MAGIC, 0, 0, 0};
    if ((e = slot_write((uint64_t) (uintptr_t) p, w)) != 0) return e;
    pthread_mutex_lock(&cond_lock);
    handles = realloc(handles, (nhandles + 1) * sizeof *handles);
    if (handles == NULL) bs_fatal("out of host memory");
    handles[nhandles++] = (struct handle){.addr = (uint64_t) (uintptr_t) p, .dflt = dflt, .flags = flags, .graph_id = g->id};
    pthread_mutex_unlock(&cond_lock);
    *out = (uint64_t) (uintptr_t) p;
    return cudaSuccess;
}

/* "The conditional handle must be associated with a conditional node in this graph or one of its
   children" (cuGraphConditionalHandleCreate): g is the handle's graph or a body graph within it. */
static int within(cudaGraph_t g, unsigned long long graph_id) {
    for (; g != NULL; g = g->parent) if (g->id == graph_id) return 1;
    return 0;
}

/* struct cudaConditionalNodeParams of CUDA 13.0 (driver_types.h): handle at 0, type at 8, size
   at 12, phGraph_out at 16, where the "CUDA-owned array populated with conditional node child
   graphs during creation of the node" is returned (the node's bodies array, freed with it). */
int bs_cond_add(cudaGraphNode_t *out, cudaGraph_t g, const cudaGraphNode_t *deps, size_t ndeps, void *params) {
    unsigned char *p = params;
    uint64_t h;
    int kind;
    unsigned size;
    memcpy(&h, p, 8);
    memcpy(&kind, p + 8, 4);
    memcpy(&size, p + 12, 4);
    pthread_mutex_lock(&cond_lock); /* held until the handle has its node: one node per handle */
    struct handle *hd = find(h);
    const char *why = hd == NULL ? "the handle was not made by cudaGraphConditionalHandleCreate"
        : bs_handle_live(hd->node) && hd->node->magic == NODE_MAGIC && hd->node->id == hd->node_id
            ? "the handle already belongs to another conditional node (one node per handle)"
        : kind < COND_IF || kind > COND_SWITCH ? "no such cudaGraphConditionalNodeType"
        : (kind == COND_IF && size != 1 && size != 2) || (kind == COND_WHILE && size != 1) || size == 0 || size > SWITCH_MAX
            ? "size must be 1 for WHILE, 1 or 2 for IF, 1 to 65536 for SWITCH"
        : bad_graph(g) ? "not a graph"
        : !within(g, hd->graph_id) ? "the handle was made for another graph; it may be used only by a conditional node in the "
                                     "graph it was made for or in a body graph within it (cudaGraphConditionalHandleCreate)"
        : NULL;
    if (why != NULL) {
        pthread_mutex_unlock(&cond_lock);
        bs_say("cudaGraphAddNode (a conditional node)", cudaErrorInvalidValue, why);
        return bs_set(cudaErrorInvalidValue);
    }
    bs_op op = {.type = BS_OP_COND, .fn = "cudaGraphLaunch (a conditional node)"};
    op.u.cond.handle = h;
    op.u.cond.kind = kind;
    op.u.cond.size = size;
    op.u.cond.bodies = calloc(size, sizeof *op.u.cond.bodies);
    if (op.u.cond.bodies == NULL) bs_fatal("out of host memory");
    for (unsigned i = 0; i < size; i++) {
        if (bs_graph_new(&op.u.cond.bodies[i]) != 0) bs_fatal("out of host memory");
        op.u.cond.bodies[i]->body = 1;
    }
    int e = bs_graph_add_checked("cudaGraphAddNode", out, g, deps, ndeps, &op); /* frees op on failure */
    if (e == 0) {
        memcpy(p + 16, &(*out)->op.u.cond.bodies, sizeof(cudaGraph_t *));
        hd->node = *out;
        hd->node_id = (*out)->id;
    }
    pthread_mutex_unlock(&cond_lock);
    return e;
}

/* What a body may hold, as cudaConditionalNodeParams documents: "kernel nodes, empty nodes, child
   graphs, memsets, memcopies, and conditionals", recursively. */
static const char *forbidden(const bs_op *ops, size_t n) {
    for (size_t i = 0; i < n; i++) {
        switch (ops[i].type) {
        case BS_OP_KERNEL: case BS_OP_EMPTY: case BS_OP_MEMSET: case BS_OP_MEMCPY: case BS_OP_COND: break;
        case BS_OP_CHILD: {
            const char *why = forbidden(ops[i].u.child.ops, ops[i].u.child.n);
            if (why) return why;
            break;
        }
        case BS_OP_HOST: return "a host node";
        case BS_OP_WAIT_EVENT: case BS_OP_EVENT_RECORD: return "an event node";
        default: return "a memory allocation or free node";
        }
    }
    return NULL;
}

int bs_cond_snapshot(const char *fn, bs_op *dst, const bs_op *src) {
    bs_op *kids = calloc(src->u.cond.size, sizeof *kids);
    if (kids == NULL) bs_fatal("out of host memory");
    *dst = *src;
    dst->u.cond.bodies = NULL;
    dst->u.cond.kids = kids;
    for (unsigned i = 0; i < src->u.cond.size; i++) kids[i] = (bs_op){.type = BS_OP_EMPTY};
    for (unsigned i = 0; i < src->u.cond.size; i++) {
        bs_op *ops;
        size_t n;
        int e = bs_graph_ops(fn, src->u.cond.bodies[i], &ops, &n);
        const char *why = e ? NULL : forbidden(ops, n);
        kids[i] = (bs_op){.type = BS_OP_CHILD, .fn = "cudaGraphLaunch (a conditional node's body)"};
        kids[i].u.child.ops = e ? NULL : ops;
        kids[i].u.child.n = e ? 0 : n;
        if (why != NULL) {
            char msg[200];
            snprintf(msg, sizeof msg, "a conditional node's body graph holds %s; only kernel, empty, child graph, memset, "
                                      "memcpy and conditional nodes may be there (cudaConditionalNodeParams)", why);
            bs_say(fn, cudaErrorNotSupported, msg);
            e = bs_set(cudaErrorNotSupported);
        }
        if (e) {
            bs_cond_free(dst);
            return e;
        }
    }
    return cudaSuccess;
}

/* The condition's value now; -1 (named, cudaErrorIllegalState) when nothing assigned it in this launch. */
static int64_t condition(const bs_op *op, int *err) {
    uint32_t w[4];
    *err = bs_copy(op->fn, w, (const void *) (uintptr_t) op->u.cond.handle, 16, 2);
    if (*err) return -1;
    if (w[3] == 0) {
        /* "If cudaGraphCondAssignDefault is not set, the value is undefined at the start of each graph
           execution": a node that reads it before a kernel sets it would run on an undefined value. */
        bs_say(op->fn, cudaErrorIllegalState, "the condition was read before any kernel of this launch set it, and its "
               "handle has no default (cudaGraphCondAssignDefault): its value is undefined; the launch stops here");
        *err = bs_set(cudaErrorIllegalState);
        return -1;
    }
    return w[2];
}

int bs_cond_run(const bs_op *op) {
    const bs_op *kids = op->u.cond.kids;
    int e;
    int64_t v = condition(op, &e);
    if (e) return e;
    switch (op->u.cond.kind) {
    case COND_IF:
        if (v != 0) return bs_run_op(&kids[0]);
        return op->u.cond.size == 2 ? bs_run_op(&kids[1]) : cudaSuccess;
    case COND_WHILE: /* evaluated when reached and after each run of the body */
        while (v != 0) {
            if ((e = bs_run_op(&kids[0])) != 0) return e;
            v = condition(op, &e);
            if (e) return e;
        }
        return cudaSuccess;
    default: /* SWITCH: body v, none when v >= size */
        return (uint64_t) v < op->u.cond.size ? bs_run_op(&kids[v]) : cudaSuccess;
    }
}

/* cudaGraphExecUpdate of a conditional op: 0, or the cudaGraphExecUpdateResult that refuses it. The
   Programming Guide ("Graph Update Limitations", conditional nodes): "Changing node parameters is not
   supported (i.e. number of graphs in the conditional ...)", and nodes within the bodies follow the
   rules for any node: their number and types (in launch order, at any depth) must match. */
static int ops_match(const bs_op *a, size_t na, const bs_op *b, size_t nb) {
    if (na != nb) return 2; /* cudaGraphExecUpdateErrorTopologyChanged */
    for (size_t i = 0; i < na; i++) {
        if (a[i].type != b[i].type) return 3; /* cudaGraphExecUpdateErrorNodeTypeChanged */
        int r = a[i].type == BS_OP_CHILD ? ops_match(a[i].u.child.ops, a[i].u.child.n, b[i].u.child.ops, b[i].u.child.n)
              : a[i].type == BS_OP_COND ? bs_cond_update_check(&a[i], &b[i]) : 0;
        if (r) return r;
    }
    return 0;
}

int bs_cond_update_check(const bs_op *old, const bs_op *fresh) {
    if (old->u.cond.kind != fresh->u.cond.kind || old->u.cond.size != fresh->u.cond.size) {
        return 5; /* cudaGraphExecUpdateErrorParametersChanged */
    }
    for (unsigned i = 0; i < old->u.cond.size; i++) {
        const bs_op *a = (const bs_op *) old->u.cond.kids + i, *b = (const bs_op *) fresh->u.cond.kids + i;
        int r = ops_match(a->u.child.ops, a->u.child.n, b->u.child.ops, b->u.child.n);
        if (r) return r;
    }
    return 0;
}

/* The distinct handles the conditional ops in ops use, at any depth (a child graph twice in a graph
   brings its handles twice). */
static void collect(const bs_op *ops, size_t n, uint64_t **hs, size_t *nh, size_t *cap) {
    for (size_t i = 0; i < n; i++) {
        if (ops[i].type == BS_OP_CHILD) collect(ops[i].u.child.ops, ops[i].u.child.n, hs, nh, cap);
        if (ops[i].type != BS_OP_COND) continue;
        size_t k = 0;
        while (k < *nh && (*hs)[k] != ops[i].u.cond.handle) k++;
        if (k == *nh) {
            if (*nh == *cap && (*hs = realloc(*hs, (*cap = 2 * *cap + 8) * sizeof **hs)) == NULL) bs_fatal("out of host memory");
            (*hs)[(*nh)++] = ops[i].u.cond.handle;
        }
        for (unsigned b = 0; b < ops[i].u.cond.size; b++) {
            const bs_op *kid = (const bs_op *) ops[i].u.cond.kids + b;
            collect(kid->u.child.ops, kid->u.child.n, hs, nh, cap);
        }
    }
}

/* How many launches on this thread hold slots now (more than one: a host node's launch). */
static __thread int held_here;

/* The innermost graph launch running on this thread (its slots armed around each of its kernels). */
static __thread const bs_cond_held *running_here;

/* Writes the slots of hs, disarmed: taken (defaults applied) or given back. The words are read under
   the lock (a new handle may move the list), written outside it (a copy is a request to the engine);
   the caller holds these slots, so no other launch writes them meanwhile. A slot is armed only while
   one of its launch's kernels runs (bs_cond_arm). */
static void write_slots(const uint64_t *hs, size_t nh, int taking) {
    uint32_t (*w)[4] = malloc((nh ? nh : 1) * sizeof *w);
    if (w == NULL) bs_fatal("out of host memory");
    pthread_mutex_lock(&cond_lock);
    for (size_t k = 0; k < nh; k++) {
        const struct handle *hd = find(hs[k]);
        int dflt = hd != NULL && (hd->flags & 1u);
        uint32_t v[4] = {SLOT_MAGIC, 0, taking && dflt ? hd->dflt : 0, (uint32_t) (taking && dflt)};
        memcpy(w[k], v, sizeof v);
    }
    pthread_mutex_unlock(&cond_lock);
    for (size_t k = 0; k < nh; k++) slot_write(hs[k], w[k]);
    free(w);
}

/* All of a launch's slots are taken at once, under the lock, so two launches never each hold one
   the other waits for. Only a thread holding none waits: one holding some is inside a host node of
   its own launch, and its wait could close a cycle (thread A's host node waiting for B's slots while
   B's waits for A's), so it is refused instead, as a wait on its own slots is. */
int bs_cond_take(const bs_op *ops, size_t n, bs_cond_held *held) {
    uint64_t *hs = NULL;
    size_t nh = 0, cap = 0;
    collect(ops, n, &hs, &nh, &cap);
    pthread_mutex_lock(&cond_lock);
    for (;;) {
        int busy = 0, mine = 0;
        for (size_t k = 0; k < nh; k++) {
            const struct handle *hd = find(hs[k]);
            if (hd != NULL && hd->taken) {
                busy = 1;
                mine |= pthread_equal(hd->by, pthread_self());
            }
        }
        if (busy && held_here > 0) { /* from a host node of this thread's launch: the wait might never end */
            pthread_mutex_unlock(&cond_lock);
            free(hs);
            bs_say("cudaGraphLaunch", cudaErrorNotPermitted, mine
                   ? "a launch of a graph sharing a conditional handle with a launch still running on this thread (from its "
                     "host node: host functions may make no CUDA calls)"
                   : "a launch from a host node (host functions may make no CUDA calls) of a graph whose conditional handle "
                     "another thread's launch holds: waiting for it while this thread's launch holds its own could deadlock");
            return bs_set(cudaErrorNotPermitted);
        }
        if (!busy) break;
        pthread_cond_wait(&cond_given_back, &cond_lock);
    }
    for (size_t k = 0; k < nh; k++) {
        struct handle *hd = find(hs[k]);
        if (hd != NULL) {
            hd->taken = 1;
            hd->by = pthread_self();
        }
    }
    pthread_mutex_unlock(&cond_lock);
    if (nh) held_here++; /* a launch without handles holds none */
    write_slots(hs, nh, 1); /* the slots are this launch's alone now */
    held->hs = hs;
    held->nh = nh;
    held->outer = running_here; /* a launch from a host node nests in its thread's launch */
    running_here = held;
    return cudaSuccess;
}

/* Launches run one at a time (the caller holds the launch lock), so between arming and disarming
   only this thread's kernel runs: a kernel of another graph, on another thread, finds the slots
   disarmed, and its cudaGraphSetConditional is graph-conditional-not-launched. The slot's value
   and assigned words stay as the launch's kernels left them. */
void bs_cond_arm(int on) {
    const bs_cond_held *h = running_here;
    uint32_t w = (uint32_t) on;
    for (size_t k = 0; h != NULL && k < h->nh; k++) {
        /* The wire itself, not bs_copy: a launch that failed made its error sticky, and the slot must still be disarmed. */
        bs_buf b = {0}, r = {0};
        bs_put_u64(&b, h->hs[k] + 4);
        bs_put(&b, &w, 4);
        bs_call(BS_WRITE, &b, &r);
        free(b.p);
        free(r.p);
    }
}

/* Exactly the slots taken, kept with the launch (the graph's current version may name others). */
void bs_cond_give(bs_cond_held *held) {
    if (held->nh) held_here--;
    running_here = held->outer;
    write_slots(held->hs, held->nh, 0);
    pthread_mutex_lock(&cond_lock);
    for (size_t k = 0; k < held->nh; k++) {
        struct handle *h = find(held->hs[k]);
        if (h != NULL) h->taken = 0;
    }
    pthread_cond_broadcast(&cond_given_back);
    pthread_mutex_unlock(&cond_lock);
    free(held->hs);
    held->hs = NULL;
    held->nh = 0;
}

/* A graph's node (bodies: cudaGraphClone) or a snapshot's op (kids). */
void bs_cond_copy(bs_op *dst, const bs_op *src) {
    unsigned size = src->u.cond.size;
    if (src->u.cond.bodies != NULL) {
        dst->u.cond.bodies = calloc(size, sizeof *dst->u.cond.bodies);
        if (dst->u.cond.bodies == NULL) bs_fatal("out of host memory");
        for (unsigned i = 0; i < size; i++) {
            /* cudaGraphClone refused a graph whose bodies hold memory nodes before it came here, so
               every body clones; the empty body is only a fallback. */
            if (cudaGraphClone(&dst->u.cond.bodies[i], src->u.cond.bodies[i]) != 0 && bs_graph_new(&dst->u.cond.bodies[i]) != 0) {
                bs_fatal("out of host memory");
            }
            dst->u.cond.bodies[i]->body = 1;
        }
        return;
    }
    dst->u.cond.kids = bs_ops_copy(src->u.cond.kids, size);
}

int bs_cond_body_capturing(const bs_op *op) {
    if (op->type != BS_OP_COND || op->u.cond.bodies == NULL) return 0;
    for (unsigned i = 0; i < op->u.cond.size; i++) {
        const struct bs_graph *b = op->u.cond.bodies[i];
        if (b->capturing) return 1;
        for (size_t k = 0; k < b->n; k++) if (bs_cond_body_capturing(&b->nodes[k]->op)) return 1;
    }
    return 0;
}

int bs_cond_body_memory(const bs_op *op) {
    if (op->type != BS_OP_COND || op->u.cond.bodies == NULL) return 0;
    for (unsigned i = 0; i < op->u.cond.size; i++) {
        const struct bs_graph *b = op->u.cond.bodies[i];
        for (size_t k = 0; k < b->n; k++) {
            const bs_op *o = &b->nodes[k]->op;
            if (o->type == BS_OP_MEMALLOC || o->type == BS_OP_MEMFREE || bs_cond_body_memory(o)) return 1;
        }
    }
    return 0;
}

void bs_cond_free(bs_op *op) {
    for (unsigned i = 0; op->u.cond.bodies != NULL && i < op->u.cond.size; i++) bs_graph_free(op->u.cond.bodies[i]);
    for (unsigned i = 0; op->u.cond.kids != NULL && i < op->u.cond.size; i++) bs_op_free((bs_op *) op->u.cond.kids + i);
    free(op->u.cond.bodies);
    free(op->u.cond.kids);
    op->u.cond.bodies = NULL;
    op->u.cond.kids = NULL;
}

/* ---- external semaphores ---------------------------------------------------------------------- */

/* An external semaphore is imported (cudaImportExternalSemaphore) from another API's driver object:
   a Vulkan or Direct3D fence, an NvSciSync object, a file descriptor the GPU driver made. None can
   exist without a GPU driver, so there is nothing for such a node or call to signal or wait on:
   refused by name as impossible here, not as a call not implemented yet (bs_unimplemented). */
static int no_semaphores(const char *fn) {
    bs_say(fn, cudaErrorNotSupported, "external semaphores come from a GPU driver's Vulkan, Direct3D or NvSciSync objects, "
                                      "which cannot exist here, so there is none to import, signal or wait on");
    return bs_set(cudaErrorNotSupported);
}

int cudaImportExternalSemaphore(void *out, const void *desc) { return no_semaphores("cudaImportExternalSemaphore"); }
int cudaGraphAddExternalSemaphoresSignalNode(cudaGraphNode_t *out, cudaGraph_t g, const cudaGraphNode_t *deps, size_t n, const void *p) {
    return no_semaphores("cudaGraphAddExternalSemaphoresSignalNode");
}
int cudaGraphAddExternalSemaphoresWaitNode(cudaGraphNode_t *out, cudaGraph_t g, const cudaGraphNode_t *deps, size_t n, const void *p) {
    return no_semaphores("cudaGraphAddExternalSemaphoresWaitNode");
}
