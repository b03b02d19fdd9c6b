/*
 * Changing a graph's edges and an executable graph's nodes after the fact, and instantiating
 * with parameters (docs/runtime.md, "Graphs and stream capture"; cuda_runtime_api.h of CUDA
 * 13.0 for each call).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>

#include "capture.h"

/* Every edge is checked (there, in this graph, listed once) before any is removed. */
int cudaGraphRemoveDependencies(cudaGraph_t g, const cudaGraphNode_t *from, const cudaGraphNode_t *to, const void *edges, size_t n) {
    if (bad_graph(g) || (n > 0 && (from == NULL || to == NULL))) return bs_set(cudaErrorInvalidValue);
    for (size_t i = 0; i < n; i++) {
        const unsigned char *ed = edges ? (const unsigned char *) edges + 8 * i : NULL;
        for (int b = 0; ed && b < 8; b++) {
            if (ed[b]) return bs_unimplemented("cudaGraphRemoveDependencies with edge data (programmatic dependencies)");
        }
        const char *why = NULL;
        int there = 0;
        if (bad_node(from[i]) || bad_node(to[i]) || from[i]->graph != g || to[i]->graph != g) why = "a node that is not in this graph";
        for (size_t j = 0; why == NULL && j < to[i]->ndeps; j++) there |= to[i]->deps[j] == from[i];
        if (why == NULL && !there) why = "an edge that is not there";
        for (size_t j = 0; why == NULL && j < i; j++) if (from[j] == from[i] && to[j] == to[i]) why = "an edge listed twice";
        if (why != NULL) {
            bs_say("cudaGraphRemoveDependencies", cudaErrorInvalidValue, why);
            return bs_set(cudaErrorInvalidValue);
        }
    }
    for (size_t i = 0; i < n; i++) {
        struct bs_node *t = to[i];
        size_t w = 0;
        for (size_t j = 0; j < t->ndeps; j++) if (t->deps[j] != from[i]) t->deps[w++] = t->deps[j];
        t->ndeps = w;
    }
    return cudaSuccess;
}

int cudaGraphExecGetFlags(cudaGraphExec_t x, unsigned long long *flags) {
    if (bs_bad_exec(x) || flags == NULL) return bs_set(cudaErrorInvalidValue);
    *flags = x->flags;
    return cudaSuccess;
}

int cudaGraphInstantiate(cudaGraphExec_t *pExec, cudaGraph_t g, unsigned long long flags);

/* struct cudaGraphInstantiateParams: flags, uploadStream, errNode_out, result_out. Uploading has
   nothing to do here; a failure reports cudaGraphInstantiateError (1) with no error node. */
typedef struct { unsigned long long flags; cudaStream_t upload; cudaGraphNode_t err_node; int result; } instantiate_params;

int cudaGraphInstantiateWithParams(cudaGraphExec_t *pExec, cudaGraph_t g, instantiate_params *p) {
    if (p == NULL) return bs_set(cudaErrorInvalidValue);
    int e = cudaGraphInstantiate(pExec, g, p->flags & ~2ull); /* cudaGraphInstantiateFlagUpload: done (nothing to upload) */
    p->err_node = NULL;
    p->result = e == cudaSuccess ? 0 : 1;
    return e;
}

int cudaGraphInstantiateWithParams_ptsz(cudaGraphExec_t *pExec, cudaGraph_t g, instantiate_params *p) {
    return cudaGraphInstantiateWithParams(pExec, g, p);
}

/* The position of node's op in x; only kernel, memcpy and memset nodes can be disabled, as
   documented. -1 (named) otherwise. Called with the lock of x's ops held (graph_exec.c). */
static long enable_slot(const char *fn, cudaGraphExec_t x, cudaGraphNode_t node) {
    if (bs_bad_exec(x) || bad_node(node) || node->graph->id != x->origin_id) {
        bs_say(fn, cudaErrorInvalidValue, "the node is not of the graph the executable graph was made from");
        return -1;
    }
    for (size_t k = 0; k < x->n; k++) {
        if (x->ids[k] != node->id) continue;
        int t = x->cur->ops[k].type;
        if (t == BS_OP_KERNEL || t == BS_OP_MEMCPY || t == BS_OP_MEMSET) return (long) k;
        bs_say(fn, cudaErrorInvalidValue, "only kernel, memcpy and memset nodes can be disabled");
        return -1;
    }
    bs_say(fn, cudaErrorInvalidValue, "the node is not in the executable graph");
    return -1;
}

/* A disabled node does nothing when the executable graph is launched, until enabled again; a
   launch under way keeps the state it started with (it runs its own version of the ops). */
int cudaGraphNodeSetEnabled(cudaGraphExec_t x, cudaGraphNode_t node, unsigned enabled) {
    bs_exec_lock();
    long k = enable_slot("cudaGraphNodeSetEnabled", x, node);
    if (k >= 0) bs_exec_writable(x)->disabled[k] = enabled == 0;
    bs_exec_unlock();
    return k < 0 ? bs_set(cudaErrorInvalidValue) : cudaSuccess;
}

int cudaGraphNodeGetEnabled(cudaGraphExec_t x, cudaGraphNode_t node, unsigned *enabled) {
    if (enabled == NULL) return bs_set(cudaErrorInvalidValue);
    bs_exec_lock();
    long k = enable_slot("cudaGraphNodeGetEnabled", x, node);
    if (k >= 0) *enabled = !x->cur->disabled[k];
    bs_exec_unlock();
    return k < 0 ? bs_set(cudaErrorInvalidValue) : cudaSuccess;
}
