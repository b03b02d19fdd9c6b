/*
 * CUDA graphs (docs/runtime.md, "Graphs and stream capture"): the work of a node (an op), and
 * nodes built by the cudaGraphAdd* calls or recorded by stream capture (streams.c), read and
 * changed. Executable graphs, a snapshot of the nodes in one fixed order: graph_exec.c.
 *
 * The order (deterministic, and the same on every launch): of the nodes whose dependencies have
 * all run, the one added to the graph first runs next. A captured graph therefore replays in the
 * order the program issued its work. Nothing runs at the same time, so any order the edges allow
 * gives what a GPU may give; a program that relies on two nodes without an edge between them
 * running together deadlocks here and is reported.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graph.h"

/* ---- ops ------------------------------------------------------------------------------------ */

/* A memset of 2- or 4-byte elements: each row written whole from a host pattern, every row
   checked to be device memory before the first is written. */
static int set_wide(const bs_op *op) {
    const char *fn = op->fn;
    size_t es = op->u.set.element_size, rowbytes = op->u.set.width * es;
    if (rowbytes == 0 || op->u.set.height == 0) return cudaSuccess;
    size_t pitch = op->u.set.height > 1 ? op->u.set.pitch : rowbytes;
    for (size_t y = 0; y < op->u.set.height; y++) {
        char *row = (char *) op->u.set.dst + y * pitch;
        if (!bs_check_device(row, rowbytes) && !bs_managed(row, rowbytes)) {
            fprintf(stderr, "barrierscope: %s: the destination rows (%p, %zu bytes each) are not all device memory "
                            "(returns cudaErrorInvalidValue; nothing was written)\n", fn, op->u.set.dst, rowbytes);
            return bs_set(cudaErrorInvalidValue);
        }
    }
    unsigned char *pattern = malloc(rowbytes);
    if (pattern == NULL) bs_fatal("out of host memory");
    for (size_t i = 0; i < op->u.set.width; i++) memcpy(pattern + i * es, &op->u.set.value, es); /* little-endian */
    int e = cudaSuccess;
    for (size_t y = 0; y < op->u.set.height && e == 0; y++) e = bs_copy(fn, (char *) op->u.set.dst + y * pitch, pattern, rowbytes, 1);
    free(pattern);
    return e;
}

int bs_run_op(const bs_op *op) {
    switch (op->type) {
    case BS_OP_KERNEL:
        return bs_launch_op(op);
    case BS_OP_MEMCPY:
        return op->u.copy.one_d ? bs_copy(op->fn, op->u.copy.dst, op->u.copy.src, op->u.copy.count, op->u.copy.kind)
                                : bs_memcpy3d(op->fn, &op->u.copy.p3);
    case BS_OP_MEMSET:
        if (op->u.set.element_size != 1) return set_wide(op);
        if (op->u.set.height <= 1 && op->u.set.depth <= 1) return bs_memset(op->fn, op->u.set.dst, (int) op->u.set.value, op->u.set.width);
        return bs_memset_rows(op->fn, op->u.set.dst, op->u.set.pitch, op->u.set.slice, (int) op->u.set.value,
                              op->u.set.width, op->u.set.height, op->u.set.depth ? op->u.set.depth : 1);
    case BS_OP_MEMALLOC:
    case BS_OP_MEMFREE:
        return bs_graph_alloc_run(op);
    case BS_OP_CHILD:
        for (size_t i = 0; i < op->u.child.n; i++) {
            int e = bs_run_op((const bs_op *) op->u.child.ops + i);
            if (e) return e;
        }
        return cudaSuccess;
    case BS_OP_WAIT_EVENT:
    case BS_OP_EVENT_RECORD:
        return bs_event_op_run(op);
    case BS_OP_COND:
        return bs_cond_run(op);
    case BS_OP_HOST:
        BS_STICKY();
        op->u.host.fn(op->u.host.data);
        return cudaSuccess;
    default:
        return cudaSuccess;
    }
}

void bs_op_copy(bs_op *dst, const bs_op *src) {
    *dst = *src;
    if (src->type == BS_OP_KERNEL) {
        dst->u.kernel.params = malloc(src->u.kernel.len ? src->u.kernel.len : 1);
        if (dst->u.kernel.params == NULL) bs_fatal("out of host memory");
        if (src->u.kernel.len) memcpy(dst->u.kernel.params, src->u.kernel.params, src->u.kernel.len);
    }
    if (src->type == BS_OP_MEMALLOC) bs_graph_alloc_ref(src->u.mem.addr, 1);
    if (src->type == BS_OP_CHILD) dst->u.child.ops = bs_ops_copy(src->u.child.ops, src->u.child.n);
    if (src->type == BS_OP_COND) bs_cond_copy(dst, src);
}

bs_op *bs_ops_copy(const bs_op *src, size_t n) {
    bs_op *ops = malloc((n ? n : 1) * sizeof *ops);
    if (ops == NULL) bs_fatal("out of host memory");
    for (size_t i = 0; i < n; i++) bs_op_copy(&ops[i], &src[i]);
    return ops;
}

void bs_op_free(bs_op *op) {
    if (op->type == BS_OP_KERNEL) free(op->u.kernel.params);
    if (op->type == BS_OP_MEMALLOC) bs_graph_alloc_ref(op->u.mem.addr, -1);
    if (op->type == BS_OP_CHILD) {
        for (size_t i = 0; i < op->u.child.n; i++) bs_op_free((bs_op *) op->u.child.ops + i);
        free(op->u.child.ops);
    }
    if (op->type == BS_OP_COND) bs_cond_free(op);
    op->type = BS_OP_EMPTY;
}

/* ---- graphs ----------------------------------------------------------------------------------- */

unsigned long long bs_next_id(void) {
    static unsigned long long last;
    return __atomic_add_fetch(&last, 1, __ATOMIC_RELAXED);
}

int bs_graph_new(cudaGraph_t *g) {
    *g = calloc(1, sizeof **g);
    if (*g == NULL) return cudaErrorMemoryAllocation;
    (*g)->magic = GRAPH_MAGIC;
    (*g)->id = bs_next_id();
    bs_handle_add(*g);
    return cudaSuccess;
}

cudaGraphNode_t bs_graph_add(cudaGraph_t g, const cudaGraphNode_t *deps, size_t ndeps, bs_op *op) {
    struct bs_node *n = calloc(1, sizeof *n);
    g->nodes = realloc(g->nodes, (g->n + 1) * sizeof *g->nodes);
    if (n == NULL || g->nodes == NULL) bs_fatal("out of host memory");
    n->magic = NODE_MAGIC;
    n->graph = g;
    n->index = g->n;
    n->id = bs_next_id();
    bs_handle_add(n);
    n->op = *op;
    for (unsigned i = 0; op->type == BS_OP_COND && op->u.cond.bodies != NULL && i < op->u.cond.size; i++) {
        op->u.cond.bodies[i]->parent = g; /* which handles a conditional node in the body may use */
    }
    n->deps = malloc((ndeps ? ndeps : 1) * sizeof *n->deps);
    if (n->deps == NULL) bs_fatal("out of host memory");
    if (ndeps) memcpy(n->deps, deps, ndeps * sizeof *deps);
    n->ndeps = ndeps;
    g->nodes[g->n++] = n;
    return n;
}

void bs_graph_free(cudaGraph_t g) {
    for (size_t i = 0; i < g->n; i++) {
        bs_op_free(&g->nodes[i]->op);
        free(g->nodes[i]->deps);
        free(g->nodes[i]->param_ptrs);
        free(g->nodes[i]->attrs);
        g->nodes[i]->magic = 0;
        bs_handle_remove(g->nodes[i]);
        free(g->nodes[i]);
    }
    free(g->nodes);
    g->magic = 0;
    bs_handle_remove(g);
    bs_urefs_release(&g->urefs);
    free(g);
}


int bs_graph_all_reach(cudaGraph_t g, cudaGraphNode_t const *tips, size_t ntips, cudaGraphNode_t const *need, size_t nneed) {
    if (nneed == 0) return 1;
    char *seen = calloc(g->n ? g->n : 1, 1);
    cudaGraphNode_t *todo = malloc((g->n ? g->n : 1) * sizeof *todo);
    if (seen == NULL || todo == NULL) bs_fatal("out of host memory");
    size_t top = 0;
    for (size_t i = 0; i < ntips; i++) if (!seen[tips[i]->index]) { seen[tips[i]->index] = 1; todo[top++] = tips[i]; }
    while (top > 0) {
        cudaGraphNode_t n = todo[--top];
        for (size_t i = 0; i < n->ndeps; i++) if (!seen[n->deps[i]->index]) { seen[n->deps[i]->index] = 1; todo[top++] = n->deps[i]; }
    }
    int all = 1;
    for (size_t i = 0; i < nneed && all; i++) all = seen[need[i]->index];
    free(seen);
    free(todo);
    return all;
}

int cudaGraphCreate(cudaGraph_t *pGraph, unsigned flags) {
    if (pGraph == NULL || flags != 0) return bs_set(cudaErrorInvalidValue);
    return bs_set(bs_graph_new(pGraph));
}

/* "All operations other than destroy and node removal are permitted on the graph while the
   capture sequence is in progress" (cudaStreamGetCaptureInfo): the two are refused. */
static int capturing(const char *fn, cudaGraph_t g) {
    if (!g->capturing) return 0;
    fprintf(stderr, "barrierscope: %s: the graph is being captured into; end the capture first (returns cudaErrorInvalidValue)\n", fn);
    return 1;
}

/* Likewise a conditional node's body (it goes with its node, or with its node's graph), at any
   depth: n's bodies, or those of every node of g when n is NULL. */
static int body_capturing(const char *fn, cudaGraph_t g, cudaGraphNode_t n) {
    int any = 0;
    for (size_t i = 0; i < g->n && !any; i++) if (n == NULL || g->nodes[i] == n) any = bs_cond_body_capturing(&g->nodes[i]->op);
    if (any) {
        fprintf(stderr, "barrierscope: %s: a conditional node's body graph is being captured into (cudaStreamBeginCaptureToGraph); "
                        "end the capture first (returns cudaErrorInvalidValue)\n", fn);
    }
    return any;
}

int cudaGraphDestroy(cudaGraph_t g) {
    if (bad_graph(g) || capturing("cudaGraphDestroy", g) || body_capturing("cudaGraphDestroy", g, NULL)) {
        return bs_set(cudaErrorInvalidValue);
    }
    if (g->body) {
        bs_say("cudaGraphDestroy", cudaErrorInvalidValue, "a conditional node's body graph is CUDA-owned: it goes with its node");
        return bs_set(cudaErrorInvalidValue);
    }
    bs_graph_free(g);
    return cudaSuccess;
}

/* Dependencies must be nodes of this graph, each once (cudaGraphAdd*Node). */
int bs_graph_add_checked(const char *fn, cudaGraphNode_t *out, cudaGraph_t g, const cudaGraphNode_t *deps, size_t ndeps, bs_op *op) {
    const char *why = NULL;
    if (out == NULL || bad_graph(g) || (ndeps > 0 && deps == NULL)) why = "a null node pointer, graph or dependency list";
    for (size_t i = 0; i < ndeps && why == NULL; i++) {
        if (bad_node(deps[i]) || deps[i]->graph != g) why = "a dependency that is not a node of this graph";
        for (size_t j = 0; j < i && why == NULL; j++) if (deps[j] == deps[i]) why = "a dependency listed twice";
    }
    if (why != NULL) {
        fprintf(stderr, "barrierscope: %s: %s (returns cudaErrorInvalidValue)\n", fn, why);
        bs_op_free(op);
        return bs_set(cudaErrorInvalidValue);
    }
    *out = bs_graph_add(g, deps, ndeps, op);
    return cudaSuccess;
}

int bs_kernel_node_op(const char *fn, const kernel_node_params *p, bs_op *op) {
    if (p == NULL || (p->params != NULL && p->extra != NULL)) return bs_set(cudaErrorInvalidValue);
    if (p->extra != NULL) {
        char name[120];
        snprintf(name, sizeof name, "%s with \"extra\" (a packed argument buffer)", fn);
        return bs_unimplemented(name);
    }
    int e = bs_kernel_op(bs_function_of(p->func), p->grid, p->block, (dim3){0, 0, 0}, p->shared, p->params, op);
    if (e == 0) op->fn = "cudaGraphLaunch (a kernel node)";
    return e;
}

int cudaGraphAddKernelNode(cudaGraphNode_t *out, cudaGraph_t g, const cudaGraphNode_t *deps, size_t ndeps, const kernel_node_params *p) {
    bs_op op;
    int e = bs_kernel_node_op("cudaGraphAddKernelNode", p, &op);
    return e ? e : bs_graph_add_checked("cudaGraphAddKernelNode", out, g, deps, ndeps, &op);
}

int cudaGraphAddHostNode(cudaGraphNode_t *out, cudaGraph_t g, const cudaGraphNode_t *deps, size_t ndeps, void *const *p) {
    if (p == NULL || p[0] == NULL) return bs_set(cudaErrorInvalidValue);
    bs_op op = {.type = BS_OP_HOST, .fn = "cudaGraphLaunch (a host node)"};
    op.u.host.fn = (void (*)(void *)) p[0];
    op.u.host.data = p[1];
    return bs_graph_add_checked("cudaGraphAddHostNode", out, g, deps, ndeps, &op);
}

/* struct cudaMemAllocNodeParams of CUDA 13 (offsets checked against its driver_types.h): the pool
   properties (allocType, handleTypes, location type and id first), access descriptors, size, and
   the address returned. */
int cudaGraphAddMemAllocNode(cudaGraphNode_t *out, cudaGraph_t g, const cudaGraphNode_t *deps, size_t ndeps, void *params) {
    if (params == NULL) return bs_set(cudaErrorInvalidValue);
    const int *props = params;
    size_t size;
    memcpy(&size, (char *) params + 104, sizeof size);
    if (size == 0 || props[0] != 1 || props[2] != 1 || props[3] != 0) {
        fprintf(stderr, "barrierscope: cudaGraphAddMemAllocNode: %s (returns cudaErrorInvalidValue)\n",
                size == 0 ? "bytesize 0" : "only pinned memory on device 0 exists here");
        return bs_set(cudaErrorInvalidValue);
    }
    bs_op op;
    int e = bs_graph_alloc_new("cudaGraphAddMemAllocNode", size, &op);
    if (e) return e;
    void *p = (void *) (uintptr_t) op.u.mem.addr;
    e = bs_graph_add_checked("cudaGraphAddMemAllocNode", out, g, deps, ndeps, &op);
    if (e == 0) memcpy((char *) params + 112, &p, sizeof p);
    return e;
}

int cudaGraphAddMemFreeNode(cudaGraphNode_t *out, cudaGraph_t g, const cudaGraphNode_t *deps, size_t ndeps, void *dptr) {
    if (!bs_is_graph_alloc(dptr)) {
        fprintf(stderr, "barrierscope: cudaGraphAddMemFreeNode: %p is no graph allocation (returns cudaErrorInvalidValue)\n", dptr);
        return bs_set(cudaErrorInvalidValue);
    }
    bs_op op = {.type = BS_OP_MEMFREE, .fn = "cudaGraphLaunch (a memory free node)"};
    op.u.mem.addr = (uint64_t) (uintptr_t) dptr;
    return bs_graph_add_checked("cudaGraphAddMemFreeNode", out, g, deps, ndeps, &op);
}

int cudaGraphAddEmptyNode(cudaGraphNode_t *out, cudaGraph_t g, const cudaGraphNode_t *deps, size_t ndeps) {
    bs_op op = {.type = BS_OP_EMPTY, .fn = "cudaGraphLaunch"};
    return bs_graph_add_checked("cudaGraphAddEmptyNode", out, g, deps, ndeps, &op);
}

/* CUDA 13's form: edge data may be given; only the default (all zero) kind is modelled. Every
   edge is checked before any is added, so a refused call changes nothing. */
int cudaGraphAddDependencies(cudaGraph_t g, const cudaGraphNode_t *from, const cudaGraphNode_t *to, const void *edges, size_t n) {
    if (bad_graph(g) || (n > 0 && (from == NULL || to == NULL))) return bs_set(cudaErrorInvalidValue);
    for (size_t i = 0; i < n; i++) {
        const unsigned char *ed = edges ? (const unsigned char *) edges + 8 * i : NULL;
        for (int b = 0; ed && b < 8; b++) {
            if (ed[b]) return bs_unimplemented("cudaGraphAddDependencies with edge data (programmatic dependencies)");
        }
        const char *why = NULL;
        if (bad_node(from[i]) || bad_node(to[i]) || from[i]->graph != g || to[i]->graph != g) why = "a node that is not in this graph";
        else if (from[i] == to[i]) why = "an edge from a node to itself";
        for (size_t j = 0; why == NULL && j < to[i]->ndeps; j++) if (to[i]->deps[j] == from[i]) why = "an edge that is already there";
        for (size_t j = 0; why == NULL && j < i; j++) if (from[j] == from[i] && to[j] == to[i]) why = "an edge listed twice";
        if (why != NULL) {
            fprintf(stderr, "barrierscope: cudaGraphAddDependencies: %s (returns cudaErrorInvalidValue)\n", why);
            return bs_set(cudaErrorInvalidValue);
        }
    }
    for (size_t i = 0; i < n; i++) {
        struct bs_node *t = to[i];
        t->deps = realloc(t->deps, (t->ndeps + 1) * sizeof *t->deps);
        if (t->deps == NULL) bs_fatal("out of host memory");
        t->deps[t->ndeps++] = from[i];
    }
    return cudaSuccess;
}

/* Nodes in the order they were added (all, or only those without dependencies). */
static int list(cudaGraph_t g, cudaGraphNode_t *nodes, size_t *num, int roots) {
    if (bad_graph(g) || num == NULL) return bs_set(cudaErrorInvalidValue);
    size_t k = 0;
    for (size_t i = 0; i < g->n; i++) {
        if (roots && g->nodes[i]->ndeps != 0) continue;
        if (nodes != NULL && k < *num) nodes[k] = g->nodes[i];
        k++;
    }
    if (nodes != NULL) {
        for (size_t i = k; i < *num; i++) nodes[i] = NULL;
        if (k < *num) *num = k;
    } else {
        *num = k;
    }
    return cudaSuccess;
}

int cudaGraphGetNodes(cudaGraph_t g, cudaGraphNode_t *nodes, size_t *num) { return list(g, nodes, num, 0); }
int cudaGraphGetRootNodes(cudaGraph_t g, cudaGraphNode_t *nodes, size_t *num) { return list(g, nodes, num, 1); }

int cudaGraphNodeGetType(cudaGraphNode_t n, int *type) {
    if (bad_node(n) || type == NULL) return bs_set(cudaErrorInvalidValue);
    *type = n->op.type;
    return cudaSuccess;
}

/* ---- reading and changing a graph ------------------------------------------------------------ */

/* from[i] -> to[i] for every edge, by the order the nodes were added; edge data all zero. */
int cudaGraphGetEdges(cudaGraph_t g, cudaGraphNode_t *from, cudaGraphNode_t *to, void *edges, size_t *num) {
    if (bad_graph(g) || num == NULL || (from == NULL) != (to == NULL)) return bs_set(cudaErrorInvalidValue);
    size_t k = 0;
    for (size_t i = 0; i < g->n; i++) {
        for (size_t j = 0; j < g->nodes[i]->ndeps; j++, k++) {
            if (from == NULL || k >= *num) continue;
            from[k] = g->nodes[i]->deps[j];
            to[k] = g->nodes[i];
            if (edges) memset((char *) edges + 8 * k, 0, 8);
        }
    }
    if (from != NULL && k < *num) {
        for (size_t i = k; i < *num; i++) from[i] = to[i] = NULL;
        *num = k;
    } else if (from == NULL) {
        *num = k;
    }
    return cudaSuccess;
}

/* A node's dependencies, or the nodes that depend on it (in the order they were added). */
static int neighbours(cudaGraphNode_t n, cudaGraphNode_t *out, void *edges, size_t *num, int dependents) {
    if (bad_node(n) || num == NULL) return bs_set(cudaErrorInvalidValue);
    size_t k = 0;
    struct bs_graph *g = n->graph;
    size_t count = dependents ? g->n : n->ndeps;
    for (size_t i = 0; i < count; i++) {
        cudaGraphNode_t m = NULL;
        if (!dependents) m = n->deps[i];
        for (size_t j = 0; dependents && j < g->nodes[i]->ndeps && m == NULL; j++) if (g->nodes[i]->deps[j] == n) m = g->nodes[i];
        if (m == NULL) continue;
        if (out != NULL && k < *num) {
            out[k] = m;
            if (edges) memset((char *) edges + 8 * k, 0, 8);
        }
        k++;
    }
    if (out != NULL) for (size_t i = k; i < *num; i++) out[i] = NULL; /* "the remaining entries ... set to NULL" */
    if (out == NULL || k < *num) *num = k;
    return cudaSuccess;
}

int cudaGraphNodeGetDependencies(cudaGraphNode_t n, cudaGraphNode_t *deps, void *edges, size_t *num) {
    return neighbours(n, deps, edges, num, 0);
}

int cudaGraphNodeGetDependentNodes(cudaGraphNode_t n, cudaGraphNode_t *deps, void *edges, size_t *num) {
    return neighbours(n, deps, edges, num, 1);
}

/* "Nodes and edges of the graph cannot be deleted", "The graph cannot be cloned" when it has
   memory nodes (cudaGraphAddMemAllocNode's documentation); for a clone, a conditional node's body
   holding one counts too (its body would be cloned). */
static int has_memory_nodes(const char *fn, cudaGraph_t g, int in_bodies) {
    for (size_t i = 0; i < g->n; i++) {
        if (g->nodes[i]->op.type == BS_OP_MEMALLOC || g->nodes[i]->op.type == BS_OP_MEMFREE
            || (in_bodies && bs_cond_body_memory(&g->nodes[i]->op))) {
            fprintf(stderr, "barrierscope: %s: not for a graph with memory allocation or free nodes "
                            "(returns cudaErrorInvalidValue)\n", fn);
            return 1;
        }
    }
    return 0;
}

/* The node and its edges go; the nodes after it keep their order. */
int cudaGraphDestroyNode(cudaGraphNode_t n) {
    if (bad_node(n) || capturing("cudaGraphDestroyNode", n->graph) || body_capturing("cudaGraphDestroyNode", n->graph, n)
        || has_memory_nodes("cudaGraphDestroyNode", n->graph, 0)) {
        return bs_set(cudaErrorInvalidValue);
    }
    struct bs_graph *g = n->graph;
    for (size_t i = 0; i < g->n; i++) {
        struct bs_node *m = g->nodes[i];
        size_t w = 0;
        for (size_t j = 0; j < m->ndeps; j++) if (m->deps[j] != n) m->deps[w++] = m->deps[j];
        m->ndeps = w;
    }
    memmove(g->nodes + n->index, g->nodes + n->index + 1, (g->n - n->index - 1) * sizeof *g->nodes);
    g->n--;
    for (size_t i = n->index; i < g->n; i++) g->nodes[i]->index = i;
    bs_op_free(&n->op);
    free(n->deps);
    free(n->param_ptrs);
    free(n->attrs);
    n->magic = 0;
    bs_handle_remove(n);
    free(n);
    return cudaSuccess;
}

int cudaGraphClone(cudaGraph_t *out, cudaGraph_t g) {
    if (out == NULL || bad_graph(g) || has_memory_nodes("cudaGraphClone", g, 1)) return bs_set(cudaErrorInvalidValue);
    cudaGraph_t c;
    if (bs_graph_new(&c) != 0) return bs_set(cudaErrorMemoryAllocation);
    c->source_id = g->id;
    /* Every node first, then the edges: cudaGraphAddDependencies may make a node depend on one
       added after it. */
    for (size_t i = 0; i < g->n; i++) {
        bs_op op;
        bs_op_copy(&op, &g->nodes[i]->op);
        struct bs_node *copy = bs_graph_add(c, NULL, 0, &op);
        copy->source_id = g->nodes[i]->id;
        bs_node_attrs_copy(copy, g->nodes[i]);
    }
    for (size_t i = 0; i < g->n; i++) {
        struct bs_node *from = g->nodes[i], *to = c->nodes[i];
        free(to->deps);
        to->deps = malloc((from->ndeps ? from->ndeps : 1) * sizeof *to->deps);
        if (to->deps == NULL) bs_fatal("out of host memory");
        for (size_t j = 0; j < from->ndeps; j++) to->deps[j] = c->nodes[from->deps[j]->index];
        to->ndeps = from->ndeps;
    }
    bs_urefs_copy(&c->urefs, &g->urefs); /* a clone owns references of its own */
    *out = c;
    return cudaSuccess;
}

int cudaGraphNodeFindInClone(cudaGraphNode_t *out, cudaGraphNode_t original, cudaGraph_t clone) {
    if (out == NULL || bad_node(original) || bad_graph(clone) || clone->source_id != original->graph->id) {
        return bs_set(cudaErrorInvalidValue);
    }
    for (size_t i = 0; i < clone->n; i++) {
        if (clone->nodes[i]->source_id == original->id) {
            *out = clone->nodes[i];
            return cudaSuccess;
        }
    }
    return bs_set(cudaErrorInvalidValue); /* its copy was destroyed */
}

/* kernelParams point at the node's own copies of the arguments, valid until its parameters are
   set (made once per setting, so every read until then gives the same valid array). */
int cudaGraphKernelNodeGetParams(cudaGraphNode_t n, kernel_node_params *p) {
    if (bad_node(n) || p == NULL || n->op.type != BS_OP_KERNEL) return bs_set(cudaErrorInvalidValue);
    if (n->param_ptrs == NULL) {
        const uint32_t *sizes;
        int count = bs_function_params(n->op.u.kernel.f, &sizes);
        n->param_ptrs = malloc((count > 0 ? (size_t) count : 1) * sizeof *n->param_ptrs);
        if (n->param_ptrs == NULL) bs_fatal("out of host memory");
        size_t at = 0;
        for (int i = 0; i < count; i++) {
            n->param_ptrs[i] = n->op.u.kernel.params + at;
            at += sizes[i];
        }
    }
    p->func = (void *) bs_function_host(n->op.u.kernel.f);
    p->grid = n->op.u.kernel.grid;
    p->block = n->op.u.kernel.block;
    p->shared = (unsigned) n->op.u.kernel.shared;
    p->params = n->param_ptrs;
    p->extra = NULL;
    return cudaSuccess;
}

int cudaGraphKernelNodeSetParams(cudaGraphNode_t n, const kernel_node_params *p) {
    if (bad_node(n) || n->op.type != BS_OP_KERNEL) return bs_set(cudaErrorInvalidValue);
    bs_op op;
    int e = bs_kernel_node_op("cudaGraphKernelNodeSetParams", p, &op);
    if (e) return e;
    op.u.kernel.cluster = n->op.u.kernel.cluster; /* an attribute of the node, not a parameter */
    op.u.kernel.cooperative = n->op.u.kernel.cooperative; /* likewise */
    bs_op_free(&n->op);
    n->op = op;
    free(n->param_ptrs); /* pointed into the old arguments (p may have been read from it: freed only now) */
    n->param_ptrs = NULL;
    return cudaSuccess;
}
