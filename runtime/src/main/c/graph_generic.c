/*
 * The generic node calls of CUDA 12.2 and later (cudaGraphAddNode, cudaGraphNodeSetParams,
 * cudaGraphExecNodeSetParams), each passed on to the typed call of its node type. struct
 * cudaGraphNodeParams (CUDA 13.0 driver_types.h, 256 bytes): int type, int reserved0[3], the
 * type's parameters at 16, long long reserved2 at 248. The V2 parameter structs have the layout
 * of the older ones the typed calls take (kernel, memset, host, memory allocation: checked with
 * offsetof), except memcpy's: int flags, int reserved, a context, then the cudaMemcpy3DParms at 16.
 * Conditional nodes: graph_cond.c; external semaphore nodes are refused there, by name.
 */
#include <stdio.h>
#include <string.h>

#include "graph.h"

enum { T_KERNEL = 0, T_MEMCPY = 1, T_MEMSET = 2, T_HOST = 3, T_GRAPH = 4, T_EMPTY = 5, T_WAIT = 6, T_RECORD = 7,
       T_ALLOC = 10, T_FREE = 11, T_COND = 13 };

int cudaGraphAddKernelNode(cudaGraphNode_t *, cudaGraph_t, const cudaGraphNode_t *, size_t, const void *);
int cudaGraphAddMemcpyNode(cudaGraphNode_t *, cudaGraph_t, const cudaGraphNode_t *, size_t, const void *);
int cudaGraphAddMemsetNode(cudaGraphNode_t *, cudaGraph_t, const cudaGraphNode_t *, size_t, const void *);
int cudaGraphAddHostNode(cudaGraphNode_t *, cudaGraph_t, const cudaGraphNode_t *, size_t, const void *);
int cudaGraphAddChildGraphNode(cudaGraphNode_t *, cudaGraph_t, const cudaGraphNode_t *, size_t, cudaGraph_t);
int cudaGraphAddEmptyNode(cudaGraphNode_t *, cudaGraph_t, const cudaGraphNode_t *, size_t);
int cudaGraphAddEventRecordNode(cudaGraphNode_t *, cudaGraph_t, const cudaGraphNode_t *, size_t, cudaEvent_t);
int cudaGraphAddEventWaitNode(cudaGraphNode_t *, cudaGraph_t, const cudaGraphNode_t *, size_t, cudaEvent_t);
int cudaGraphAddMemAllocNode(cudaGraphNode_t *, cudaGraph_t, const cudaGraphNode_t *, size_t, void *);
int cudaGraphAddMemFreeNode(cudaGraphNode_t *, cudaGraph_t, const cudaGraphNode_t *, size_t, void *);
int cudaGraphKernelNodeSetParams(cudaGraphNode_t, const void *);
int cudaGraphMemcpyNodeSetParams(cudaGraphNode_t, const void *);
int cudaGraphMemsetNodeSetParams(cudaGraphNode_t, const void *);
int cudaGraphHostNodeSetParams(cudaGraphNode_t, const void *);
int cudaGraphEventRecordNodeSetEvent(cudaGraphNode_t, cudaEvent_t);
int cudaGraphEventWaitNodeSetEvent(cudaGraphNode_t, cudaEvent_t);
int cudaGraphExecKernelNodeSetParams(cudaGraphExec_t, cudaGraphNode_t, const void *);
int cudaGraphExecMemcpyNodeSetParams(cudaGraphExec_t, cudaGraphNode_t, const void *);
int cudaGraphExecMemsetNodeSetParams(cudaGraphExec_t, cudaGraphNode_t, const void *);
int cudaGraphExecHostNodeSetParams(cudaGraphExec_t, cudaGraphNode_t, const void *);
int cudaGraphExecEventRecordNodeSetEvent(cudaGraphExec_t, cudaGraphNode_t, cudaEvent_t);
int cudaGraphExecEventWaitNodeSetEvent(cudaGraphExec_t, cudaGraphNode_t, cudaEvent_t);
int cudaGraphNodeGetType(cudaGraphNode_t, int *);
int cudaGraphAddExternalSemaphoresSignalNode(cudaGraphNode_t *, cudaGraph_t, const cudaGraphNode_t *, size_t, const void *);
int cudaGraphAddExternalSemaphoresWaitNode(cudaGraphNode_t *, cudaGraph_t, const cudaGraphNode_t *, size_t, const void *);

/* The type, or -1 (named, cudaErrorInvalidValue) when the reserved words are not zero or the
   memcpy flags are set ("must be zero"). */
static int type_of(const char *fn, const unsigned char *p) {
    int type, reserved[3], flags;
    long long tail;
    memcpy(&type, p, 4);
    memcpy(reserved, p + 4, 12);
    memcpy(&tail, p + 248, 8);
    memcpy(&flags, p + 16, 4);
    const char *why = reserved[0] || reserved[1] || reserved[2] || tail ? "reserved fields must be zero"
                    : type == T_MEMCPY && flags ? "memcpy.flags must be zero" : NULL;
    if (why == NULL) return type;
    bs_say(fn, cudaErrorInvalidValue, why);
    bs_set(cudaErrorInvalidValue);
    return -1;
}

static int not_modelled(const char *fn, int type) {
    (void) type;
    bs_say(fn, cudaErrorInvalidValue, "no such cudaGraphNodeType");
    return bs_set(cudaErrorInvalidValue);
}

int cudaGraphAddNode(cudaGraphNode_t *node, cudaGraph_t g, const cudaGraphNode_t *deps, const void *edges, size_t n, void *params) {
    if (params == NULL) return bs_set(cudaErrorInvalidValue);
    for (size_t i = 0; edges != NULL && i < n; i++) {
        for (int b = 0; b < 8; b++) {
            if (((const unsigned char *) edges)[8 * i + b]) return bs_unimplemented("cudaGraphAddNode with edge data (programmatic dependencies)");
        }
    }
    unsigned char *p = params;
    int type = type_of("cudaGraphAddNode", p);
    void *u = p + 16, *ptr;
    cudaGraph_t child;
    cudaEvent_t ev;
    switch (type) {
    case -1: return cudaErrorInvalidValue;
    case T_KERNEL: return cudaGraphAddKernelNode(node, g, deps, n, u);
    case T_MEMCPY: return cudaGraphAddMemcpyNode(node, g, deps, n, p + 32);
    case T_MEMSET: return cudaGraphAddMemsetNode(node, g, deps, n, u);
    case T_HOST: return cudaGraphAddHostNode(node, g, deps, n, u);
    case T_GRAPH: /* either ownership: the child is copied into the node (a moved one is then just not used again) */
        memcpy(&child, u, sizeof child);
        return cudaGraphAddChildGraphNode(node, g, deps, n, child);
    case T_EMPTY: return cudaGraphAddEmptyNode(node, g, deps, n);
    case T_WAIT: memcpy(&ev, u, sizeof ev); return cudaGraphAddEventWaitNode(node, g, deps, n, ev);
    case T_RECORD: memcpy(&ev, u, sizeof ev); return cudaGraphAddEventRecordNode(node, g, deps, n, ev);
    case T_ALLOC: return cudaGraphAddMemAllocNode(node, g, deps, n, u); /* writes dptr back into the caller's params */
    case T_FREE: memcpy(&ptr, u, sizeof ptr); return cudaGraphAddMemFreeNode(node, g, deps, n, ptr);
    case T_COND: return bs_cond_add(node, g, deps, n, u);
    case 8: return cudaGraphAddExternalSemaphoresSignalNode(node, g, deps, n, u);
    case 9: return cudaGraphAddExternalSemaphoresWaitNode(node, g, deps, n, u);
    default: return not_modelled("cudaGraphAddNode", type);
    }
}

/* As the typed Set calls; "the node type specified by nodeParams->type must match" the node's. */
static int set_params(const char *fn, cudaGraphExec_t x, cudaGraphNode_t node, void *params) {
    if (params == NULL) return bs_set(cudaErrorInvalidValue);
    unsigned char *p = params;
    int type = type_of(fn, p), have = -1;
    if (type == -1) return cudaErrorInvalidValue;
    int e = cudaGraphNodeGetType(node, &have);
    if (e) return e;
    if (have != type) {
        bs_say(fn, cudaErrorInvalidValue, "nodeParams->type is not the node's type");
        return bs_set(cudaErrorInvalidValue);
    }
    void *u = p + 16;
    cudaEvent_t ev;
    switch (type) {
    case T_KERNEL: return x ? cudaGraphExecKernelNodeSetParams(x, node, u) : cudaGraphKernelNodeSetParams(node, u);
    case T_MEMCPY: return x ? cudaGraphExecMemcpyNodeSetParams(x, node, p + 32) : cudaGraphMemcpyNodeSetParams(node, p + 32);
    case T_MEMSET: return x ? cudaGraphExecMemsetNodeSetParams(x, node, u) : cudaGraphMemsetNodeSetParams(node, u);
    case T_HOST: return x ? cudaGraphExecHostNodeSetParams(x, node, u) : cudaGraphHostNodeSetParams(node, u);
    case T_WAIT:
        memcpy(&ev, u, sizeof ev);
        return x ? cudaGraphExecEventWaitNodeSetEvent(x, node, ev) : cudaGraphEventWaitNodeSetEvent(node, ev);
    case T_RECORD:
        memcpy(&ev, u, sizeof ev);
        return x ? cudaGraphExecEventRecordNodeSetEvent(x, node, ev) : cudaGraphEventRecordNodeSetEvent(node, ev);
    case T_EMPTY: return cudaSuccess; /* nothing to set */
    default: {
        char name[120];
        snprintf(name, sizeof name, "%s (node type %d)", fn, type);
        return bs_unimplemented(name);
    }
    }
}

int cudaGraphNodeSetParams(cudaGraphNode_t node, void *params) { return set_params("cudaGraphNodeSetParams", NULL, node, params); }

int cudaGraphExecNodeSetParams(cudaGraphExec_t x, cudaGraphNode_t node, void *params) {
    if (x == NULL) return bs_set(cudaErrorInvalidValue);
    return set_params("cudaGraphExecNodeSetParams", x, node, params);
}
