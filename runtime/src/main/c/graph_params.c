/*
 * The parameters of copy, memset and host nodes, made, read and changed (in a graph, and in an
 * executable graph made from it), and kernel node attributes (docs/runtime.md, "Graphs and
 * stream capture"; cuda_runtime_api.h of CUDA 13.0 for each call). An executable graph's node
 * changes for later launches only; the graph's node and the executable graph are apart.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"

/* ---- copy nodes ------------------------------------------------------------------------------- */

static int copy3d_op(const struct cudaMemcpy3DParms *p, bs_op *op) {
    if (p == NULL) return bs_set(cudaErrorInvalidValue);
    if (p->kind < 0 || p->kind > 4) return bs_set(cudaErrorInvalidMemcpyDirection);
    *op = (bs_op) {.type = BS_OP_MEMCPY, .fn = "cudaGraphLaunch (a memcpy node)"};
    op->u.copy.p3 = *p;
    return cudaSuccess;
}

static int copy1d_op(void *dst, const void *src, size_t count, int kind, bs_op *op) {
    if (kind < 0 || kind > 4) return bs_set(cudaErrorInvalidMemcpyDirection);
    *op = (bs_op) {.type = BS_OP_MEMCPY, .fn = "cudaGraphLaunch (a memcpy node)"};
    op->u.copy.one_d = 1;
    op->u.copy.dst = dst;
    op->u.copy.src = src;
    op->u.copy.count = count;
    op->u.copy.kind = kind;
    return cudaSuccess;
}

/* A copy to or from a registered variable: its address now (a copy node keeps addresses). */
static int symbol_op(const char *fn, int to, const void *symbol, void *other, size_t count, size_t offset, int kind, bs_op *op) {
    uint64_t a;
    if (kind < 0 || kind > 4) return bs_set(cudaErrorInvalidMemcpyDirection);
    int e = bs_symbol_range(fn, symbol, count, offset, &a);
    if (e) return e;
    void *dev = (void *) (uintptr_t) a;
    int k = kind == 3 ? 3 : to ? 1 : 2; /* device-to-device, else host-to-device or device-to-host */
    return to ? copy1d_op(dev, other, count, k, op) : copy1d_op(other, dev, count, k, op);
}

int cudaGraphAddMemcpyNode(cudaGraphNode_t *out, cudaGraph_t g, const cudaGraphNode_t *deps, size_t ndeps, const struct cudaMemcpy3DParms *p) {
    bs_op op;
    int e = copy3d_op(p, &op);
    return e ? e : bs_graph_add_checked("cudaGraphAddMemcpyNode", out, g, deps, ndeps, &op);
}

int cudaGraphAddMemcpyNode1D(cudaGraphNode_t *out, cudaGraph_t g, const cudaGraphNode_t *deps, size_t ndeps,
                             void *dst, const void *src, size_t count, int kind) {
    bs_op op;
    int e = copy1d_op(dst, src, count, kind, &op);
    return e ? e : bs_graph_add_checked("cudaGraphAddMemcpyNode1D", out, g, deps, ndeps, &op);
}

int cudaGraphAddMemcpyNodeToSymbol(cudaGraphNode_t *out, cudaGraph_t g, const cudaGraphNode_t *deps, size_t ndeps,
                                   const void *symbol, const void *src, size_t count, size_t offset, int kind) {
    bs_op op;
    int e = symbol_op("cudaGraphAddMemcpyNodeToSymbol", 1, symbol, (void *) src, count, offset, kind, &op);
    return e ? e : bs_graph_add_checked("cudaGraphAddMemcpyNodeToSymbol", out, g, deps, ndeps, &op);
}

int cudaGraphAddMemcpyNodeFromSymbol(cudaGraphNode_t *out, cudaGraph_t g, const cudaGraphNode_t *deps, size_t ndeps,
                                     void *dst, const void *symbol, size_t count, size_t offset, int kind) {
    bs_op op;
    int e = symbol_op("cudaGraphAddMemcpyNodeFromSymbol", 0, symbol, dst, count, offset, kind, &op);
    return e ? e : bs_graph_add_checked("cudaGraphAddMemcpyNodeFromSymbol", out, g, deps, ndeps, &op);
}

/* A 1D copy reads back as the 3D copy it is: one row of count bytes (pitch count), extent {count, 1, 1}. */
int cudaGraphMemcpyNodeGetParams(cudaGraphNode_t n, struct cudaMemcpy3DParms *p) {
    if (bad_node(n) || p == NULL || n->op.type != BS_OP_MEMCPY) return bs_set(cudaErrorInvalidValue);
    if (!n->op.u.copy.one_d) {
        *p = n->op.u.copy.p3;
        return cudaSuccess;
    }
    size_t c = n->op.u.copy.count;
    memset(p, 0, sizeof *p);
    p->srcPtr = (struct cudaPitchedPtr) {(void *) n->op.u.copy.src, c, c, 1};
    p->dstPtr = (struct cudaPitchedPtr) {n->op.u.copy.dst, c, c, 1};
    p->extent = (struct cudaExtent) {c, 1, 1};
    p->kind = n->op.u.copy.kind;
    return cudaSuccess;
}

/* The node's copy replaced by op (built, so checked, already); only a copy node's. */
static int set_node(cudaGraphNode_t n, int type, bs_op *op) {
    if (bad_node(n) || n->op.type != type) {
        bs_op_free(op);
        return bs_set(cudaErrorInvalidValue);
    }
    bs_op_free(&n->op);
    n->op = *op;
    return cudaSuccess;
}

/* In a version of x's ops no launch reads (bs_exec_op): a launch under way keeps its own. */
static int set_exec(const char *fn, cudaGraphExec_t x, cudaGraphNode_t n, int type, bs_op *op) {
    bs_exec_lock();
    bs_op *in = bs_exec_op(fn, x, n, type);
    if (in != NULL) {
        bs_op_free(in);
        *in = *op;
    }
    bs_exec_unlock();
    if (in != NULL) return cudaSuccess;
    bs_op_free(op);
    return bs_set(cudaErrorInvalidValue);
}

int cudaGraphMemcpyNodeSetParams(cudaGraphNode_t n, const struct cudaMemcpy3DParms *p) {
    bs_op op;
    int e = copy3d_op(p, &op);
    return e ? e : set_node(n, BS_OP_MEMCPY, &op);
}

int cudaGraphMemcpyNodeSetParams1D(cudaGraphNode_t n, void *dst, const void *src, size_t count, int kind) {
    bs_op op;
    int e = copy1d_op(dst, src, count, kind, &op);
    return e ? e : set_node(n, BS_OP_MEMCPY, &op);
}

int cudaGraphMemcpyNodeSetParamsToSymbol(cudaGraphNode_t n, const void *symbol, const void *src, size_t count, size_t offset, int kind) {
    bs_op op;
    int e = symbol_op("cudaGraphMemcpyNodeSetParamsToSymbol", 1, symbol, (void *) src, count, offset, kind, &op);
    return e ? e : set_node(n, BS_OP_MEMCPY, &op);
}

int cudaGraphMemcpyNodeSetParamsFromSymbol(cudaGraphNode_t n, void *dst, const void *symbol, size_t count, size_t offset, int kind) {
    bs_op op;
    int e = symbol_op("cudaGraphMemcpyNodeSetParamsFromSymbol", 0, symbol, dst, count, offset, kind, &op);
    return e ? e : set_node(n, BS_OP_MEMCPY, &op);
}

int cudaGraphExecMemcpyNodeSetParams(cudaGraphExec_t x, cudaGraphNode_t n, const struct cudaMemcpy3DParms *p) {
    bs_op op;
    int e = copy3d_op(p, &op);
    return e ? e : set_exec("cudaGraphExecMemcpyNodeSetParams", x, n, BS_OP_MEMCPY, &op);
}

int cudaGraphExecMemcpyNodeSetParams1D(cudaGraphExec_t x, cudaGraphNode_t n, void *dst, const void *src, size_t count, int kind) {
    bs_op op;
    int e = copy1d_op(dst, src, count, kind, &op);
    return e ? e : set_exec("cudaGraphExecMemcpyNodeSetParams1D", x, n, BS_OP_MEMCPY, &op);
}

int cudaGraphExecMemcpyNodeSetParamsToSymbol(cudaGraphExec_t x, cudaGraphNode_t n, const void *symbol, const void *src,
                                             size_t count, size_t offset, int kind) {
    bs_op op;
    const char *fn = "cudaGraphExecMemcpyNodeSetParamsToSymbol";
    int e = symbol_op(fn, 1, symbol, (void *) src, count, offset, kind, &op);
    return e ? e : set_exec(fn, x, n, BS_OP_MEMCPY, &op);
}

int cudaGraphExecMemcpyNodeSetParamsFromSymbol(cudaGraphExec_t x, cudaGraphNode_t n, void *dst, const void *symbol,
                                               size_t count, size_t offset, int kind) {
    bs_op op;
    const char *fn = "cudaGraphExecMemcpyNodeSetParamsFromSymbol";
    int e = symbol_op(fn, 0, symbol, dst, count, offset, kind, &op);
    return e ? e : set_exec(fn, x, n, BS_OP_MEMCPY, &op);
}

/* ---- memset nodes ------------------------------------------------------------------------------ */

/* struct cudaMemsetParams of CUDA 13's driver_types.h. */
typedef struct { void *dst; size_t pitch; unsigned value, element_size; size_t width, height; } memset_params;

static int memset_op(const char *fn, const memset_params *p, bs_op *op) {
    const char *why = NULL;
    if (p == NULL) why = "null parameters";
    else if (p->element_size != 1 && p->element_size != 2 && p->element_size != 4) why = "elementSize must be 1, 2 or 4";
    else if (p->width > SIZE_MAX / p->element_size) why = "a row (width x elementSize) larger than the address space";
    else if (p->height > 1 && p->pitch < p->width * p->element_size) why = "the pitch is smaller than a row (width x elementSize)";
    else if (p->height > 1 && p->pitch > (SIZE_MAX - p->width * p->element_size) / (p->height - 1)) why = "rows (height x pitch) larger than the address space";
    if (why != NULL) {
        fprintf(stderr, "barrierscope: %s: %s (returns cudaErrorInvalidValue)\n", fn, why);
        return bs_set(cudaErrorInvalidValue);
    }
    *op = (bs_op) {.type = BS_OP_MEMSET, .fn = "cudaGraphLaunch (a memset node)"};
    op->u.set.dst = p->dst;
    op->u.set.pitch = p->pitch;
    op->u.set.value = p->element_size == 4 ? p->value : p->value & (p->element_size == 2 ? 0xFFFFu : 0xFFu);
    op->u.set.element_size = p->element_size;
    op->u.set.width = p->width;
    op->u.set.height = p->height ? p->height : 1;
    op->u.set.depth = 1;
    return cudaSuccess;
}

int cudaGraphAddMemsetNode(cudaGraphNode_t *out, cudaGraph_t g, const cudaGraphNode_t *deps, size_t ndeps, const memset_params *p) {
    bs_op op;
    int e = memset_op("cudaGraphAddMemsetNode", p, &op);
    return e ? e : bs_graph_add_checked("cudaGraphAddMemsetNode", out, g, deps, ndeps, &op);
}

/* Also a captured cudaMemset*Async's node (its depth 1: a 3D memset is captured as such only
   when it has one slice). */
int cudaGraphMemsetNodeGetParams(cudaGraphNode_t n, memset_params *p) {
    if (bad_node(n) || p == NULL || n->op.type != BS_OP_MEMSET) return bs_set(cudaErrorInvalidValue);
    p->dst = n->op.u.set.dst;
    p->pitch = n->op.u.set.pitch;
    p->value = n->op.u.set.value;
    p->element_size = n->op.u.set.element_size;
    p->width = n->op.u.set.width;
    p->height = n->op.u.set.height;
    return cudaSuccess;
}

int cudaGraphMemsetNodeSetParams(cudaGraphNode_t n, const memset_params *p) {
    bs_op op;
    int e = memset_op("cudaGraphMemsetNodeSetParams", p, &op);
    return e ? e : set_node(n, BS_OP_MEMSET, &op);
}

int cudaGraphExecMemsetNodeSetParams(cudaGraphExec_t x, cudaGraphNode_t n, const memset_params *p) {
    bs_op op;
    int e = memset_op("cudaGraphExecMemsetNodeSetParams", p, &op);
    return e ? e : set_exec("cudaGraphExecMemsetNodeSetParams", x, n, BS_OP_MEMSET, &op);
}

/* ---- host nodes -------------------------------------------------------------------------------- */

int cudaGraphHostNodeGetParams(cudaGraphNode_t n, void **p) {
    if (bad_node(n) || p == NULL || n->op.type != BS_OP_HOST) return bs_set(cudaErrorInvalidValue);
    p[0] = (void *) n->op.u.host.fn;
    p[1] = n->op.u.host.data;
    return cudaSuccess;
}

int cudaGraphHostNodeSetParams(cudaGraphNode_t n, void *const *p) {
    if (bad_node(n) || p == NULL || p[0] == NULL || n->op.type != BS_OP_HOST) return bs_set(cudaErrorInvalidValue);
    n->op.u.host.fn = (void (*)(void *)) p[0];
    n->op.u.host.data = p[1];
    return cudaSuccess;
}

/* ---- kernel node attributes -------------------------------------------------------------------- */

/* cudaLaunchAttributeID values valid for graph nodes (driver_types.h): access policy window,
   cooperative, cluster dimension, cluster scheduling preference, priority, memory sync domain map
   and domain, preferred cluster dimension, device-updatable, NVLink-centric scheduling. */
static int node_attribute(int id) {
    return id == 1 || id == 2 || id == 4 || id == 5 || id == 8 || id == 9 || id == 10 || id == 11 || id == 13 || id == 16;
}

#define ATTR_CLUSTER 4
#define ATTR_COOPERATIVE_NODE 2

void bs_node_attrs_copy(struct bs_node *to, const struct bs_node *from) {
    if (from->attrs == NULL) return;
    if (to->attrs == NULL) to->attrs = calloc(17, sizeof *to->attrs);
    if (to->attrs == NULL) bs_fatal("out of host memory");
    memcpy(to->attrs, from->attrs, 17 * sizeof *to->attrs);
}

/* The cluster dimension is the node's launch shape (the engine checks it against the grid when
   the node runs, as any launch's); every other value is kept and read back, changing nothing the
   engine models (all CTAs are resident, one piece of work runs at a time, there is no L2). */
int cudaGraphKernelNodeSetAttribute(cudaGraphNode_t n, int id, const void *value) {
    const char *fn = "cudaGraphKernelNodeSetAttribute";
    if (bad_node(n) || n->op.type != BS_OP_KERNEL || value == NULL || !node_attribute(id)) return bs_set(cudaErrorInvalidValue);
    int e = bs_attribute_check(fn, id, value);
    if (e) return e;
    if (id == ATTR_CLUSTER) {
        dim3 c;
        memcpy(&c, value, sizeof c);
        if (c.x == 0 || c.y == 0 || c.z == 0 || (uint64_t) c.x * c.y * c.z > 16) {
            bs_say(fn, cudaErrorInvalidValue, "a cluster dimension of 0, or more than 16 CTAs in a cluster");
            return bs_set(cudaErrorInvalidValue);
        }
        n->op.u.kernel.cluster = c;
        return cudaSuccess;
    }
    if (id == ATTR_COOPERATIVE_NODE) {
        /* As the cluster dimension, part of how the node launches: a cooperative node gets the
           grid-barrier workspace (register.c), so its grid.sync() works. */
        int on;
        memcpy(&on, value, sizeof on);
        n->op.u.kernel.cooperative = on != 0;
        return cudaSuccess;
    }
    if (n->attrs == NULL && (n->attrs = calloc(17, sizeof *n->attrs)) == NULL) bs_fatal("out of host memory");
    memcpy(n->attrs[id], value, 64);
    return cudaSuccess;
}

/* A value never set reads as zeros; the cluster dimension as the node launches (a captured
   cudaLaunchKernelEx's own; zeros: the kernel's compiled-in shape, or none). */
int cudaGraphKernelNodeGetAttribute(cudaGraphNode_t n, int id, void *value) {
    if (bad_node(n) || n->op.type != BS_OP_KERNEL || value == NULL || !node_attribute(id)) return bs_set(cudaErrorInvalidValue);
    memset(value, 0, 64);
    if (id == ATTR_CLUSTER) memcpy(value, &n->op.u.kernel.cluster, sizeof(dim3));
    else if (id == ATTR_COOPERATIVE_NODE) memcpy(value, &n->op.u.kernel.cooperative, sizeof(int));
    else if (n->attrs != NULL) memcpy(value, n->attrs[id], 64);
    return cudaSuccess;
}

int cudaGraphKernelNodeCopyAttributes(cudaGraphNode_t dst, cudaGraphNode_t src) {
    if (bad_node(dst) || bad_node(src) || dst->op.type != BS_OP_KERNEL || src->op.type != BS_OP_KERNEL) return bs_set(cudaErrorInvalidValue);
    if (dst == src) return cudaSuccess;
    free(dst->attrs);
    dst->attrs = NULL;
    bs_node_attrs_copy(dst, src);
    dst->op.u.kernel.cluster = src->op.u.kernel.cluster;
    dst->op.u.kernel.cooperative = src->op.u.kernel.cooperative;
    return cudaSuccess;
}
