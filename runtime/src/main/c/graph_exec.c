/*
 * Executable graphs (docs/runtime.md, "Graphs and stream capture"): cudaGraphInstantiate fixes
 * the order of a graph's nodes (graph.c says which) and keeps a snapshot of their work;
 * cudaGraphLaunch runs it; cudaGraphExecUpdate and cudaGraphExec*SetParams change the snapshot,
 * for later launches only: a launch runs the version it took ("Changes during a launch").
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graph.h"

#define INSTANTIATE_FLAGS (1ull | 2ull | 4ull | 8ull)

static pthread_mutex_t exec_lock = PTHREAD_MUTEX_INITIALIZER;
void bs_exec_lock(void) { pthread_mutex_lock(&exec_lock); }
void bs_exec_unlock(void) { pthread_mutex_unlock(&exec_lock); }

static bs_exec_ver *ver_new(size_t n) {
    bs_exec_ver *v = calloc(1, sizeof *v);
    if (v == NULL) bs_fatal("out of host memory");
    v->refs = 1;
    v->n = n;
    v->ops = malloc((n ? n : 1) * sizeof *v->ops);
    v->disabled = calloc(n ? n : 1, 1);
    if (v->ops == NULL || v->disabled == NULL) bs_fatal("out of host memory");
    return v;
}

/* One reference given back (outside the lock); the last frees the version. */
static void ver_give(bs_exec_ver *v) {
    if (v == NULL) return;
    bs_exec_lock();
    int last = --v->refs == 0;
    bs_exec_unlock();
    if (!last) return;
    for (size_t i = 0; i < v->n; i++) bs_op_free(&v->ops[i]);
    free(v->ops);
    free(v->disabled);
    free(v);
}

/* A launch's version: the current one, referenced until ver_give. */
static bs_exec_ver *ver_take(cudaGraphExec_t x) {
    bs_exec_lock();
    bs_exec_ver *v = x->cur;
    v->refs++;
    bs_exec_unlock();
    return v;
}

bs_exec_ver *bs_exec_writable(cudaGraphExec_t x) {
    bs_exec_ver *v = x->cur;
    if (v->refs == 1) return v; /* the executable graph's alone: no launch reads it */
    bs_exec_ver *c = ver_new(v->n);
    for (size_t i = 0; i < v->n; i++) bs_op_copy(&c->ops[i], &v->ops[i]);
    memcpy(c->disabled, v->disabled, v->n ? v->n : 1);
    v->refs--; /* a launch still holds it: the last one frees it */
    x->cur = c;
    return c;
}

static void exec_free(struct bs_exec *x) {
    for (size_t i = 0; x->cur != NULL && i < x->cur->n; i++) {
        if (x->cur->ops[i].type == BS_OP_MEMALLOC && x->magic == EXEC_MAGIC) bs_graph_alloc_execs(x->cur->ops[i].u.mem.addr, -1);
    }
    ver_give(x->cur);
    free(x->from);
    free(x->ids);
    for (size_t i = 0; i < x->nnodes; i++) free(x->topo[i].deps);
    free(x->topo);
    x->magic = 0;
    bs_handle_remove(x);
    bs_urefs_release(&x->urefs);
    free(x);
}

/* Kahn's order, the earliest-added ready node first (O(n^2): graphs here are small); NULL, a
   message and *err for a cycle (cudaErrorInvalidValue) or a conditional node's body that cannot be
   instantiated (its error). *err is the caller's, not a shared variable: threads may instantiate at once. */
static struct bs_exec *snapshot(const char *fn, cudaGraph_t g, int *err) {
    struct bs_exec *x = calloc(1, sizeof *x);
    char *done = calloc(g->n ? g->n : 1, 1);
    if (x == NULL || done == NULL) bs_fatal("out of host memory");
    x->cur = ver_new(g->n);
    x->cur->n = 0; /* counts the ops made (exec_free frees those) */
    x->from = malloc((g->n ? g->n : 1) * sizeof *x->from);
    x->ids = malloc((g->n ? g->n : 1) * sizeof *x->ids);
    if (x->from == NULL || x->ids == NULL) bs_fatal("out of host memory");
    x->origin_id = g->id;
    x->nnodes = g->n;
    x->topo = calloc(g->n ? g->n : 1, sizeof *x->topo);
    if (x->topo == NULL) bs_fatal("out of host memory");
    for (size_t i = 0; i < g->n; i++) {
        x->topo[i].ndeps = g->nodes[i]->ndeps;
        x->topo[i].deps = malloc((g->nodes[i]->ndeps ? g->nodes[i]->ndeps : 1) * sizeof *x->topo[i].deps);
        if (x->topo[i].deps == NULL) bs_fatal("out of host memory");
        for (size_t j = 0; j < g->nodes[i]->ndeps; j++) x->topo[i].deps[j] = g->nodes[i]->deps[j]->index;
    }
    while (x->n < g->n) {
        struct bs_node *next = NULL;
        for (size_t i = 0; i < g->n && next == NULL; i++) {
            struct bs_node *c = g->nodes[i];
            int ready = !done[i];
            for (size_t j = 0; j < c->ndeps && ready; j++) ready = done[c->deps[j]->index];
            if (ready) next = c;
        }
        if (next == NULL) {
            fprintf(stderr, "barrierscope: %s: the graph has a cycle (cudaGraphAddDependencies) (returns cudaErrorInvalidValue)\n", fn);
            *err = cudaErrorInvalidValue;
            exec_free(x);
            free(done);
            return NULL;
        }
        done[next->index] = 1;
        x->from[x->n] = next->index;
        x->ids[x->n] = next->id;
        if (next->op.type == BS_OP_COND && (*err = bs_cond_snapshot(fn, &x->cur->ops[x->n], &next->op)) != 0) {
            exec_free(x);
            free(done);
            return NULL;
        }
        if (next->op.type != BS_OP_COND) bs_op_copy(&x->cur->ops[x->n], &next->op);
        x->cur->n = ++x->n;
    }
    free(done);
    x->magic = EXEC_MAGIC;
    bs_handle_add(x);
    return x;
}

int cudaGraphInstantiate(cudaGraphExec_t *pExec, cudaGraph_t g, unsigned long long flags) {
    if (pExec == NULL || bad_graph(g) || (flags & ~INSTANTIATE_FLAGS)) return bs_set(cudaErrorInvalidValue);
    /* As documented: Upload (2) is "only supported by cudaGraphInstantiateWithParams" (which takes it
       off before it comes here); DeviceLaunch (4) "cannot be used in conjunction with" AutoFreeOnLaunch (1). */
    if ((flags & 2ull) || (flags & 5ull) == 5ull) {
        fprintf(stderr, "barrierscope: cudaGraphInstantiate: %s (returns cudaErrorInvalidValue)\n",
                (flags & 2ull) ? "cudaGraphInstantiateFlagUpload is for cudaGraphInstantiateWithParams only"
                               : "cudaGraphInstantiateFlagDeviceLaunch cannot go with cudaGraphInstantiateFlagAutoFreeOnLaunch");
        return bs_set(cudaErrorInvalidValue);
    }
    for (size_t i = 0; i < g->n; i++) {
        if (g->nodes[i]->op.type == BS_OP_MEMALLOC && bs_graph_alloc_execs(g->nodes[i]->op.u.mem.addr, 0) > 0) {
            fprintf(stderr, "barrierscope: cudaGraphInstantiate: a graph with memory allocation nodes may have one executable "
                            "graph at a time; destroy the other first (returns cudaErrorInvalidValue)\n");
            return bs_set(cudaErrorInvalidValue);
        }
    }
    int e = 0;
    struct bs_exec *x = snapshot("cudaGraphInstantiate", g, &e);
    if (x == NULL) return bs_set(e);
    x->flags = flags;
    bs_urefs_copy(&x->urefs, &g->urefs); /* "executable graphs ... retain" the graph's user objects */
    for (size_t i = 0; i < x->n; i++) if (x->cur->ops[i].type == BS_OP_MEMALLOC) bs_graph_alloc_execs(x->cur->ops[i].u.mem.addr, 1);
    *pExec = x;
    return cudaSuccess;
}

int bs_graph_ops(const char *fn, cudaGraph_t g, bs_op **ops, size_t *n) {
    int e = 0;
    struct bs_exec *x = snapshot(fn, g, &e);
    if (x == NULL) return bs_set(e);
    x->magic = 0; /* never instantiated: holds no graph allocation */
    *ops = x->cur->ops;
    *n = x->n;
    x->cur->ops = NULL;
    x->cur->n = 0;
    exec_free(x);
    return cudaSuccess;
}

int cudaGraphInstantiateWithFlags(cudaGraphExec_t *pExec, cudaGraph_t g, unsigned long long flags) {
    return cudaGraphInstantiate(pExec, g, flags);
}

int bs_bad_exec(cudaGraphExec_t x) { return !bs_handle_live(x) || x->magic != EXEC_MAGIC; }

/* Every node runs to its end in the graph's order; the first that fails stops the launch and its
   error is the launch's (a failed kernel's is sticky, as for any launch). */
/* A child graph op: copies of ops (of a graph without memory nodes, which a child cannot own). */
static int child_op(const char *fn, const bs_op *ops, size_t n, bs_op *op) {
    for (size_t i = 0; i < n; i++) {
        if (ops[i].type == BS_OP_MEMALLOC || ops[i].type == BS_OP_MEMFREE) {
            fprintf(stderr, "barrierscope: %s: a graph with memory nodes cannot be a child graph here (returns cudaErrorInvalidValue)\n", fn);
            return bs_set(cudaErrorInvalidValue);
        }
    }
    *op = (bs_op){.type = BS_OP_CHILD, .fn = "cudaGraphLaunch (a child graph node)"};
    op->u.child.ops = bs_ops_copy(ops, n);
    op->u.child.n = n;
    return cudaSuccess;
}

/* The child graph is copied now ("cloned in this call"), in its own order. */
int cudaGraphAddChildGraphNode(cudaGraphNode_t *out, cudaGraph_t g, const cudaGraphNode_t *deps, size_t ndeps, cudaGraph_t child) {
    if (bad_graph(child) || child == g) return bs_set(cudaErrorInvalidValue);
    int e = 0;
    struct bs_exec *x = snapshot("cudaGraphAddChildGraphNode", child, &e);
    if (x == NULL) return bs_set(e);
    x->magic = 0;
    bs_op op;
    e = child_op("cudaGraphAddChildGraphNode", x->cur->ops, x->n, &op);
    exec_free(x);
    if (e == 0) e = bs_graph_add_checked("cudaGraphAddChildGraphNode", out, g, deps, ndeps, &op);
    /* The node holds a copy of the child, so the parent takes references of its own to the child's
       user objects, kept until the parent is destroyed (docs/runtime.md). */
    if (e == 0) bs_urefs_copy(&g->urefs, &child->urefs);
    return e;
}

int cudaGraphLaunch(cudaGraphExec_t x, cudaStream_t stream) {
    BS_STICKY();
    if (bs_bad_exec(x)) return bs_set(cudaErrorInvalidValue);
    /* This launch's version of the ops, unchanged by an update while it runs (from its own host
       node or another thread): "the update ... does not affect" launches already under way. */
    bs_exec_ver *v = ver_take(x);
    if (bs_stream_capturing(stream)) { /* launched into a capture: a child graph node of its enabled nodes */
        bs_op op, *live = malloc((v->n ? v->n : 1) * sizeof *live);
        if (live == NULL) bs_fatal("out of host memory");
        size_t m = 0;
        for (size_t i = 0; i < v->n; i++) if (!v->disabled[i]) live[m++] = v->ops[i];
        int e = child_op("cudaGraphLaunch", live, m, &op);
        free(live);
        ver_give(v);
        return e ? e : bs_issue(stream, &op);
    }
    int e = bs_stream_uncapturable(stream, "cudaGraphLaunch");
    for (size_t i = 0; i < v->n && e == 0; i++) {
        if (v->ops[i].type == BS_OP_MEMALLOC) e = bs_graph_alloc_relaunch(&v->ops[i], (x->flags & 1) != 0);
    }
    if (e) {
        ver_give(v);
        return e;
    }
    /* Atomic: threads may launch one executable graph at once (CUDA orders such launches). */
    __atomic_add_fetch(&x->running, 1, __ATOMIC_SEQ_CST);
    bs_cond_held held = {NULL, 0, NULL};
    int taken = bs_cond_take(v->ops, v->n, &held); /* conditional handles: this launch's alone, defaults applied */
    e = taken;
    for (size_t i = 0; i < v->n && e == 0; i++) if (!v->disabled[i]) e = bs_run_op(&v->ops[i]);
    if (taken == 0) bs_cond_give(&held); /* those taken */
    ver_give(v);
    if (__atomic_sub_fetch(&x->running, 1, __ATOMIC_SEQ_CST) == 0 && x->doomed) exec_free(x);
    return e;
}

int cudaGraphUpload(cudaGraphExec_t x, cudaStream_t stream) {
    BS_STICKY();
    (void) stream;
    return bs_bad_exec(x) ? bs_set(cudaErrorInvalidValue) : cudaSuccess;
}

/* "If the executable graph is in-flight, it will not be terminated, but rather freed
   asynchronously on completion" (cuGraphExecDestroy): destroyed by a host node of its own launch,
   its handle is gone at once and its memory when the launch ends. */
int cudaGraphExecDestroy(cudaGraphExec_t x) {
    if (bs_bad_exec(x)) return bs_set(cudaErrorInvalidValue);
    if (x->running == 0) {
        exec_free(x);
        return cudaSuccess;
    }
    for (size_t i = 0; i < x->n; i++) if (x->cur->ops[i].type == BS_OP_MEMALLOC) bs_graph_alloc_execs(x->cur->ops[i].u.mem.addr, -1);
    x->magic = 0;
    bs_handle_remove(x);
    x->doomed = 1;
    return cudaSuccess;
}

/* cudaGraphExecUpdateResultInfo: result, errorNode, errorFromNode. */
typedef struct { int result; cudaGraphNode_t node, from; } update_info;
enum { UPDATE_SUCCESS = 0, UPDATE_ERROR = 1, UPDATE_TOPOLOGY = 2, UPDATE_TYPE = 3, UPDATE_PARAMETERS = 5, UPDATE_NOT_SUPPORTED = 6 };

/* Nodes are paired by the order they were added (a graph captured again from the same code
   pairs node for node); the topology and node types must match, parameters (kernel function,
   arguments, configuration; copy and memset operands) may change. */
int cudaGraphExecUpdate(cudaGraphExec_t x, cudaGraph_t g, update_info *info) {
    update_info r = {UPDATE_SUCCESS, NULL, NULL};
    if (bs_bad_exec(x) || bad_graph(g)) r.result = UPDATE_ERROR;
    else if (g->n != x->n) r.result = UPDATE_TOPOLOGY;
    for (size_t k = 0; r.result == UPDATE_SUCCESS && k < x->n; k++) {
        size_t i = x->from[k];
        const bs_op *old = &x->cur->ops[k]; /* only updates change x->cur, and one thread updates x at a time */
        struct bs_node *nn = g->nodes[i];
        if (nn->op.type != old->type) r = (update_info){UPDATE_TYPE, nn, NULL};
        else if (old->type == BS_OP_MEMALLOC || old->type == BS_OP_MEMFREE) r = (update_info){UPDATE_NOT_SUPPORTED, nn, NULL};
    }
    int se = 0; /* which error does not matter: any failed snapshot is UPDATE_ERROR */
    struct bs_exec *fresh = r.result == UPDATE_SUCCESS ? snapshot("cudaGraphExecUpdate", g, &se) : NULL;
    if (fresh != NULL) fresh->magic = 0; /* never instantiated: holds no graph allocation */
    if (r.result == UPDATE_SUCCESS && fresh == NULL) r.result = UPDATE_ERROR;
    for (size_t i = 0; fresh != NULL && r.result == UPDATE_SUCCESS && i < g->n; i++) {
        struct bs_node *nn = g->nodes[i];
        if (x->topo[i].ndeps != nn->ndeps) r = (update_info){UPDATE_TOPOLOGY, nn, NULL};
        for (size_t j = 0; r.result == UPDATE_SUCCESS && j < nn->ndeps; j++) {
            if (x->topo[i].deps[j] != nn->deps[j]->index) r = (update_info){UPDATE_TOPOLOGY, nn, nn->deps[j]};
        }
    }
    for (size_t k = 0; fresh != NULL && r.result == UPDATE_SUCCESS && k < x->n; k++) {
        int c = x->cur->ops[k].type == BS_OP_COND ? bs_cond_update_check(&x->cur->ops[k], &fresh->cur->ops[k]) : 0;
        if (c) r = (update_info){c, g->nodes[x->from[k]], NULL};
    }
    if (info != NULL) *info = r;
    if (r.result != UPDATE_SUCCESS) {
        if (fresh != NULL) exec_free(fresh);
        if (r.result == UPDATE_ERROR) return bs_set(cudaErrorInvalidValue);
        fprintf(stderr, "barrierscope: cudaGraphExecUpdate: the graph's %s (returns cudaErrorGraphExecUpdateFailure)\n",
                r.result == UPDATE_TYPE ? "node types differ from the executable graph's"
                : r.result == UPDATE_NOT_SUPPORTED ? "memory nodes cannot be updated"
                : r.result == UPDATE_PARAMETERS ? "conditional node has another type or number of bodies than the executable graph's"
                : "topology differs from the executable graph's (a conditional node's bodies included)");
        return bs_set(cudaErrorGraphExecUpdateFailure);
    }
    /* The fresh ops become the version later launches take; a launch running the old one keeps it
       (the last to end frees it). Nodes keep their enabled state. */
    bs_exec_ver *nv = fresh->cur, *old;
    fresh->cur = NULL;
    exec_free(fresh);
    bs_exec_lock();
    old = x->cur;
    memcpy(nv->disabled, old->disabled, x->n ? x->n : 1);
    x->cur = nv;
    bs_exec_unlock();
    ver_give(old);
    return cudaSuccess;
}

/* The op of node (of the graph x was made from) in x's current version, safe to change, the lock
   held; NULL and a message when there is none. */
bs_op *bs_exec_op(const char *fn, cudaGraphExec_t x, cudaGraphNode_t node, int type) {
    if (bs_bad_exec(x) || bad_node(node) || node->graph->id != x->origin_id) {
        fprintf(stderr, "barrierscope: %s: the node is not of the graph the executable graph was made from "
                        "(returns cudaErrorInvalidValue)\n", fn);
        return NULL;
    }
    for (size_t k = 0; k < x->n; k++) if (x->ids[k] == node->id && x->cur->ops[k].type == type) return &bs_exec_writable(x)->ops[k];
    fprintf(stderr, "barrierscope: %s: not a node of that kind in the executable graph (returns cudaErrorInvalidValue)\n", fn);
    return NULL;
}

int cudaGraphExecKernelNodeSetParams(cudaGraphExec_t x, cudaGraphNode_t node, const kernel_node_params *p) {
    bs_exec_lock();
    bs_op *op = bs_exec_op("cudaGraphExecKernelNodeSetParams", x, node, BS_OP_KERNEL), fresh;
    int e = op == NULL ? bs_set(cudaErrorInvalidValue) : bs_kernel_node_op("cudaGraphExecKernelNodeSetParams", p, &fresh);
    if (e == 0) {
        fresh.u.kernel.cluster = op->u.kernel.cluster; /* an attribute of the node, not a parameter */
        fresh.u.kernel.cooperative = op->u.kernel.cooperative; /* likewise */
        bs_op_free(op);
        *op = fresh;
    }
    bs_exec_unlock();
    return e;
}

int cudaGraphExecHostNodeSetParams(cudaGraphExec_t x, cudaGraphNode_t node, void *const *p) {
    if (p == NULL || p[0] == NULL) return bs_set(cudaErrorInvalidValue);
    bs_exec_lock();
    bs_op *op = bs_exec_op("cudaGraphExecHostNodeSetParams", x, node, BS_OP_HOST);
    if (op != NULL) {
        op->u.host.fn = (void (*)(void *)) p[0];
        op->u.host.data = p[1];
    }
    bs_exec_unlock();
    return op == NULL ? bs_set(cudaErrorInvalidValue) : cudaSuccess;
}
