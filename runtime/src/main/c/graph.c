/*
 * CUDA graphs (docs/runtime.md, "Graphs and stream capture"): nodes built by the cudaGraphAdd*
 * calls or recorded by stream capture (streams.c), an executable graph that is a snapshot of
 * them in one fixed order, and its launch, which runs them one at a time.
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

#include "cudart.h"

#define GRAPH_MAGIC 0x47524150u
#define NODE_MAGIC 0x4E4F4445u
#define EXEC_MAGIC 0x45584543u

struct bs_node {
    uint32_t magic;
    struct bs_graph *graph;
    size_t index; /* creation order */
    bs_op op;
    struct bs_node **deps;
    size_t ndeps;
};

struct bs_graph {
    uint32_t magic;
    struct bs_node **nodes;
    size_t n;
};

typedef struct bs_exec {
    uint32_t magic;
    bs_op *ops; /* in launch order */
    size_t n;
} *cudaGraphExec_t;

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
}

void bs_op_free(bs_op *op) {
    if (op->type == BS_OP_KERNEL) free(op->u.kernel.params);
    op->type = BS_OP_EMPTY;
}

/* ---- graphs ----------------------------------------------------------------------------------- */

int bs_graph_new(cudaGraph_t *g) {
    *g = calloc(1, sizeof **g);
    if (*g == NULL) return cudaErrorMemoryAllocation;
    (*g)->magic = GRAPH_MAGIC;
    return cudaSuccess;
}

cudaGraphNode_t bs_graph_add(cudaGraph_t g, const cudaGraphNode_t *deps, size_t ndeps, bs_op *op) {
    struct bs_node *n = calloc(1, sizeof *n);
    g->nodes = realloc(g->nodes, (g->n + 1) * sizeof *g->nodes);
    if (n == NULL || g->nodes == NULL) bs_fatal("out of host memory");
    n->magic = NODE_MAGIC;
    n->graph = g;
    n->index = g->n;
    n->op = *op;
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
        g->nodes[i]->magic = 0;
        free(g->nodes[i]);
    }
    free(g->nodes);
    g->magic = 0;
    free(g);
}

static int bad_graph(cudaGraph_t g) { return (uintptr_t) g < 4096 || g->magic != GRAPH_MAGIC; }
static int bad_node(cudaGraphNode_t n) { return (uintptr_t) n < 4096 || n->magic != NODE_MAGIC; }

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

int cudaGraphDestroy(cudaGraph_t g) {
    if (bad_graph(g)) return bs_set(cudaErrorInvalidValue);
    bs_graph_free(g);
    return cudaSuccess;
}

/* Dependencies must be nodes of this graph, each once (cudaGraphAdd*Node). */
static int add(const char *fn, cudaGraphNode_t *out, cudaGraph_t g, const cudaGraphNode_t *deps, size_t ndeps, bs_op *op) {
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

/* struct cudaKernelNodeParams of CUDA 13's driver_types.h. */
typedef struct { void *func; dim3 grid, block; unsigned shared; void **params; void **extra; } kernel_node_params;

int cudaGraphAddKernelNode(cudaGraphNode_t *out, cudaGraph_t g, const cudaGraphNode_t *deps, size_t ndeps, const kernel_node_params *p) {
    if (p == NULL || (p->params != NULL && p->extra != NULL)) return bs_set(cudaErrorInvalidValue);
    if (p->extra != NULL) return bs_unimplemented("cudaGraphAddKernelNode with \"extra\" (a packed argument buffer)");
    bs_op op;
    int e = bs_kernel_op(bs_function_of(p->func), p->grid, p->block, (dim3){0, 0, 0}, p->shared, p->params, &op);
    if (e) return e;
    op.fn = "cudaGraphLaunch (a kernel node)";
    return add("cudaGraphAddKernelNode", out, g, deps, ndeps, &op);
}

int cudaGraphAddMemcpyNode(cudaGraphNode_t *out, cudaGraph_t g, const cudaGraphNode_t *deps, size_t ndeps, const struct cudaMemcpy3DParms *p) {
    if (p == NULL) return bs_set(cudaErrorInvalidValue);
    bs_op op = {.type = BS_OP_MEMCPY, .fn = "cudaGraphLaunch (a memcpy node)"};
    op.u.copy.p3 = *p;
    return add("cudaGraphAddMemcpyNode", out, g, deps, ndeps, &op);
}

int cudaGraphAddMemcpyNode1D(cudaGraphNode_t *out, cudaGraph_t g, const cudaGraphNode_t *deps, size_t ndeps,
                             void *dst, const void *src, size_t count, int kind) {
    if (kind < 0 || kind > 4) return bs_set(cudaErrorInvalidMemcpyDirection);
    bs_op op = {.type = BS_OP_MEMCPY, .fn = "cudaGraphLaunch (a memcpy node)"};
    op.u.copy.one_d = 1;
    op.u.copy.dst = dst;
    op.u.copy.src = src;
    op.u.copy.count = count;
    op.u.copy.kind = kind;
    return add("cudaGraphAddMemcpyNode1D", out, g, deps, ndeps, &op);
}

/* struct cudaMemsetParams of CUDA 13's driver_types.h. */
typedef struct { void *dst; size_t pitch; unsigned value, element_size; size_t width, height; } memset_params;

int cudaGraphAddMemsetNode(cudaGraphNode_t *out, cudaGraph_t g, const cudaGraphNode_t *deps, size_t ndeps, const memset_params *p) {
    const char *why = NULL;
    if (p == NULL) why = "null parameters";
    else if (p->element_size != 1 && p->element_size != 2 && p->element_size != 4) why = "elementSize must be 1, 2 or 4";
    else if (p->height > 1 && p->pitch < p->width * p->element_size) why = "the pitch is smaller than a row (width x elementSize)";
    if (why != NULL) {
        fprintf(stderr, "barrierscope: cudaGraphAddMemsetNode: %s (returns cudaErrorInvalidValue)\n", why);
        return bs_set(cudaErrorInvalidValue);
    }
    bs_op op = {.type = BS_OP_MEMSET, .fn = "cudaGraphLaunch (a memset node)"};
    op.u.set.dst = p->dst;
    op.u.set.pitch = p->pitch;
    op.u.set.value = p->element_size == 4 ? p->value : p->value & (p->element_size == 2 ? 0xFFFFu : 0xFFu);
    op.u.set.element_size = p->element_size;
    op.u.set.width = p->width;
    op.u.set.height = p->height ? p->height : 1;
    op.u.set.depth = 1;
    return add("cudaGraphAddMemsetNode", out, g, deps, ndeps, &op);
}

int cudaGraphAddHostNode(cudaGraphNode_t *out, cudaGraph_t g, const cudaGraphNode_t *deps, size_t ndeps, void *const *p) {
    if (p == NULL || p[0] == NULL) return bs_set(cudaErrorInvalidValue);
    bs_op op = {.type = BS_OP_HOST, .fn = "cudaGraphLaunch (a host node)"};
    op.u.host.fn = (void (*)(void *)) p[0];
    op.u.host.data = p[1];
    return add("cudaGraphAddHostNode", out, g, deps, ndeps, &op);
}

int cudaGraphAddEmptyNode(cudaGraphNode_t *out, cudaGraph_t g, const cudaGraphNode_t *deps, size_t ndeps) {
    bs_op op = {.type = BS_OP_EMPTY, .fn = "cudaGraphLaunch"};
    return add("cudaGraphAddEmptyNode", out, g, deps, ndeps, &op);
}

/* CUDA 13's form: edge data may be given; only the default (all zero) kind is modelled. */
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
        if (why != NULL) {
            fprintf(stderr, "barrierscope: cudaGraphAddDependencies: %s (returns cudaErrorInvalidValue)\n", why);
            return bs_set(cudaErrorInvalidValue);
        }
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

/* ---- executable graphs ----------------------------------------------------------------------- */

#define INSTANTIATE_FLAGS (1ull | 2ull | 4ull | 8ull)

int cudaGraphInstantiate(cudaGraphExec_t *pExec, cudaGraph_t g, unsigned long long flags) {
    if (pExec == NULL || bad_graph(g) || (flags & ~INSTANTIATE_FLAGS)) return bs_set(cudaErrorInvalidValue);
    struct bs_exec *x = calloc(1, sizeof *x);
    char *done = calloc(g->n ? g->n : 1, 1);
    if (x == NULL || done == NULL) bs_fatal("out of host memory");
    x->ops = malloc((g->n ? g->n : 1) * sizeof *x->ops);
    if (x->ops == NULL) bs_fatal("out of host memory");
    /* Kahn's order, the earliest-added ready node first: O(n^2), graphs here are small. */
    while (x->n < g->n) {
        struct bs_node *next = NULL;
        for (size_t i = 0; i < g->n && next == NULL; i++) {
            struct bs_node *c = g->nodes[i];
            int ready = !done[i];
            for (size_t j = 0; j < c->ndeps && ready; j++) ready = done[c->deps[j]->index];
            if (ready) next = c;
        }
        if (next == NULL) {
            fprintf(stderr, "barrierscope: cudaGraphInstantiate: the graph has a cycle (cudaGraphAddDependencies) "
                            "(returns cudaErrorInvalidValue)\n");
            for (size_t i = 0; i < x->n; i++) bs_op_free(&x->ops[i]);
            free(x->ops);
            free(x);
            free(done);
            return bs_set(cudaErrorInvalidValue);
        }
        done[next->index] = 1;
        bs_op_copy(&x->ops[x->n++], &next->op);
    }
    free(done);
    x->magic = EXEC_MAGIC;
    *pExec = x;
    return cudaSuccess;
}

int cudaGraphInstantiateWithFlags(cudaGraphExec_t *pExec, cudaGraph_t g, unsigned long long flags) {
    return cudaGraphInstantiate(pExec, g, flags);
}

static int bad_exec(cudaGraphExec_t x) { return (uintptr_t) x < 4096 || x->magic != EXEC_MAGIC; }

/* Every node runs to its end in the graph's order; the first that fails stops the launch and its
   error is the launch's (a failed kernel's is sticky, as for any launch). */
int cudaGraphLaunch(cudaGraphExec_t x, cudaStream_t stream) {
    BS_STICKY();
    if (bad_exec(x)) return bs_set(cudaErrorInvalidValue);
    int e = bs_stream_uncapturable(stream, "cudaGraphLaunch");
    if (e) return e;
    for (size_t i = 0; i < x->n; i++) {
        e = bs_run_op(&x->ops[i]);
        if (e) return e;
    }
    return cudaSuccess;
}

int cudaGraphUpload(cudaGraphExec_t x, cudaStream_t stream) {
    BS_STICKY();
    (void) stream;
    return bad_exec(x) ? bs_set(cudaErrorInvalidValue) : cudaSuccess;
}

int cudaGraphExecDestroy(cudaGraphExec_t x) {
    if (bad_exec(x)) return bs_set(cudaErrorInvalidValue);
    for (size_t i = 0; i < x->n; i++) bs_op_free(&x->ops[i]);
    free(x->ops);
    x->magic = 0;
    free(x);
    return cudaSuccess;
}
