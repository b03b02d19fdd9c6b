/* The graph objects shared by graph.c (graphs and nodes) and graph_exec.c (executable graphs). */
#ifndef BARRIERSCOPE_GRAPH_H
#define BARRIERSCOPE_GRAPH_H

#include "cudart.h"

#define GRAPH_MAGIC 0x47524150u
#define NODE_MAGIC 0x4E4F4445u
#define EXEC_MAGIC 0x45584543u

/* Nodes and graphs are known by ids that are never reused (bs_next_id), not by position or
   address: a position shifts when a node is destroyed, and an address is reused after a free. */
struct bs_node {
    uint32_t magic;
    struct bs_graph *graph;
    size_t index;       /* creation order among the graph's nodes (its position in graph->nodes) */
    unsigned long long id, source_id; /* its own; in a clone, the id of the node it copies */
    bs_op op;
    struct bs_node **deps;
    size_t ndeps;
    void **param_ptrs;  /* cudaGraphKernelNodeGetParams' kernelParams, into op's bytes */
    unsigned char (*attrs)[64]; /* a kernel node's attribute values by cudaLaunchAttributeID (NULL: none set) */
};

/* User objects a graph or an executable graph holds references to (graph_user.c). */
struct bs_uref { struct bs_user_object *object; unsigned long long count; };
struct bs_urefs { struct bs_uref *v; size_t n; };
/* graph_user.c: to takes references of its own to what from holds; h's references released. */
void bs_urefs_copy(struct bs_urefs *to, const struct bs_urefs *from);
void bs_urefs_release(struct bs_urefs *h);

struct bs_graph {
    uint32_t magic;
    struct bs_urefs urefs; /* cudaGraphRetainUserObject */
    struct bs_node **nodes;
    size_t n;
    unsigned long long id, source_id; /* its own; the id of the graph it is a clone of (0: none) */
    int capturing;      /* being captured into (streams.c): it may not be destroyed or lose nodes */
    int body;           /* a conditional node's body graph: CUDA-owned, cudaGraphDestroy refuses it */
    struct bs_graph *parent; /* a body graph: the graph holding its conditional node (set by bs_graph_add) */
};

/* An executable graph's ops as one launch sees them. A launch takes a reference and runs that
   version to its end; a change (cudaGraphExecUpdate, cudaGraphExec*SetParams, cudaGraphNodeSetEnabled)
   applies to later launches only, so it never writes a version a launch holds: it changes a copy
   and swaps it in under the lock. The last reference frees it. */
typedef struct bs_exec_ver {
    size_t refs;         /* the executable graph's own (while it is current) and one per launch running it */
    size_t n;
    bs_op *ops;          /* in launch order */
    unsigned char *disabled; /* per op: cudaGraphNodeSetEnabled(..., 0) (graph_edit.c); skipped when launched */
} bs_exec_ver;

typedef struct bs_exec {
    uint32_t magic;
    struct bs_urefs urefs; /* the graph's user object references, its own (released when it is freed) */
    bs_exec_ver *cur;    /* the version the next launch takes (swapped under the lock) */
    size_t *from;        /* the position of each op's node in origin when instantiated */
    unsigned long long *ids; /* the id of each op's node */
    size_t n;
    unsigned long long origin_id; /* the graph's (it may be destroyed) */
    struct { size_t ndeps, *deps; } *topo; /* origin's dependencies, as node indices */
    size_t nnodes;
    unsigned long long flags; /* cudaGraphInstantiate's */
    int running, doomed; /* launches under way; destroyed during one (freed when it ends) */
} *cudaGraphExec_t;

/* struct cudaKernelNodeParams of CUDA 13's driver_types.h. */
typedef struct { void *func; dim3 grid, block; unsigned shared; void **params; void **extra; } kernel_node_params;

static inline int bad_graph(cudaGraph_t g) { return !bs_handle_live(g) || g->magic != GRAPH_MAGIC; }
static inline int bad_node(cudaGraphNode_t n) { return !bs_handle_live(n) || n->magic != NODE_MAGIC; }

/* graph.c: a fresh id for a graph or node (from 1, in the order made). */
unsigned long long bs_next_id(void);
/* graph.c: a node of g made from op, its dependencies checked first (op freed if they are bad). */
int bs_graph_add_checked(const char *fn, cudaGraphNode_t *out, cudaGraph_t g, const cudaGraphNode_t *deps, size_t ndeps, bs_op *op);
/* graph_params.c: the attribute values of node from as node to's own (nothing when from has none). */
void bs_node_attrs_copy(struct bs_node *to, const struct bs_node *from);
/* graph.c: a kernel node's op from its parameters (checked, arguments copied). */
int bs_kernel_node_op(const char *fn, const kernel_node_params *p, bs_op *op);

/* graph_exec.c: the lock of every executable graph's current version (held briefly: never while
   a graph runs). */
void bs_exec_lock(void);
void bs_exec_unlock(void);
/* graph_exec.c, the lock held: x's current version made safe to change (copied first, and the
   copy made current, if a launch holds it). */
bs_exec_ver *bs_exec_writable(cudaGraphExec_t x);
/* graph_exec.c, the lock held: the op of node (of the graph x was made from, of that type) in x's
   current version, made safe to change (bs_exec_writable); NULL, named, if none. */
bs_op *bs_exec_op(const char *fn, cudaGraphExec_t x, cudaGraphNode_t node, int type);

/* graph_exec.c: g's ops in launch order (a snapshot, as cudaGraphInstantiate takes; bodies of
   conditional nodes included); cudaErrorInvalidValue, named, for a cycle. */
int bs_graph_ops(const char *fn, cudaGraph_t g, bs_op **ops, size_t *n);
/* graph_cond.c: a conditional op of an executable graph from a graph's (its bodies snapshot and
   checked); its run; the slots of the handles in ops taken for a launch, armed around its kernels
   only (waits while another launch holds one; cudaErrorNotPermitted, named, if this thread's own
   launch does), and those disarmed and given back; a conditional node added (cudaGraphAddNode); a
   conditional op copied or freed. */
int bs_cond_snapshot(const char *fn, bs_op *dst, const bs_op *src);
int bs_cond_run(const bs_op *op);
/* The handles a launch took (given back by bs_cond_give); outer: the launch this thread ran before it (a host node's). */
typedef struct bs_cond_held { uint64_t *hs; size_t nh; const struct bs_cond_held *outer; } bs_cond_held;
int bs_cond_take(const bs_op *ops, size_t n, bs_cond_held *held);
void bs_cond_give(bs_cond_held *held);
int bs_cond_add(cudaGraphNode_t *out, cudaGraph_t g, const cudaGraphNode_t *deps, size_t ndeps, void *params);
void bs_cond_copy(bs_op *dst, const bs_op *src);
void bs_cond_free(bs_op *op);
/* graph_cond.c: whether a body of this conditional op of a graph (or of one nested in a body) is
   being captured into (cudaStreamBeginCaptureToGraph): the node may not go then. */
int bs_cond_body_capturing(const bs_op *op);
/* graph_cond.c: whether a body of this conditional op (at any depth) holds a memory node. */
int bs_cond_body_memory(const bs_op *op);
/* graph_cond.c: 0 when an executable graph's conditional op may be updated to fresh's (the same
   kind and number of bodies, bodies of the same node types), else the cudaGraphExecUpdateResult. */
int bs_cond_update_check(const bs_op *old, const bs_op *fresh);

/* graph_exec.c: whether x is no live executable graph. */
int bs_bad_exec(cudaGraphExec_t x);

#endif
