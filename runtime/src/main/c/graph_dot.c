/*
 * cudaGraphDebugDotPrint (docs/runtime.md, "Graphs and stream capture"): a DOT file of a graph,
 * "the graph topology, node types, node id, kernel names and memcpy direction" as documented, each
 * node labelled with its id and type, a kernel node with its (mangled) name, grid and block, a
 * copy with its direction; the flags add detail on a GPU and are accepted here (the labels say
 * what we have). Host-only: it needs no device work.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "function.h"
#include "graph.h"

static const char *type_name(int t) {
    switch (t) {
    case BS_OP_KERNEL: return "KERNEL";
    case BS_OP_MEMCPY: return "MEMCPY";
    case BS_OP_MEMSET: return "MEMSET";
    case BS_OP_HOST: return "HOST";
    case BS_OP_CHILD: return "CHILD_GRAPH";
    case BS_OP_EMPTY: return "EMPTY";
    case BS_OP_WAIT_EVENT: return "EVENT_WAIT";
    case BS_OP_EVENT_RECORD: return "EVENT_RECORD";
    case BS_OP_MEMALLOC: return "MEM_ALLOC";
    case BS_OP_MEMFREE: return "MEM_FREE";
    case BS_OP_COND: return "CONDITIONAL";
    default: return "NODE";
    }
}

static const char *direction(int kind) {
    static const char *names[] = {"HtoH", "HtoD", "DtoH", "DtoD", "Default"};
    return kind >= 0 && kind <= 4 ? names[kind] : "?";
}

int cudaGraphDebugDotPrint(cudaGraph_t g, const char *path, unsigned flags) {
    (void) flags;
    if (bad_graph(g) || path == NULL) return bs_set(cudaErrorInvalidValue);
    FILE *f = fopen(path, "w");
    if (f == NULL) {
        fprintf(stderr, "barrierscope: cudaGraphDebugDotPrint: cannot write %s: %s (returns cudaErrorOperatingSystem)\n", path,
                strerror(errno));
        return bs_set(cudaErrorOperatingSystem);
    }
    fprintf(f, "digraph dot {\n  subgraph cluster_%llu {\n    label=\"graph_%llu\";\n    node [shape=record];\n", g->id, g->id);
    for (size_t i = 0; i < g->n; i++) {
        const struct bs_node *n = g->nodes[i];
        fprintf(f, "    node%llu [label=\"{%s | id %llu", n->id, type_name(n->op.type), n->id);
        if (n->op.type == BS_OP_KERNEL) {
            const struct bs_function *k = n->op.u.kernel.f;
            dim3 gr = n->op.u.kernel.grid, b = n->op.u.kernel.block;
            fprintf(f, " | %s | grid (%u,%u,%u) block (%u,%u,%u)", k->name, gr.x, gr.y, gr.z, b.x, b.y, b.z);
        } else if (n->op.type == BS_OP_MEMCPY) {
            fprintf(f, " | %s", direction(n->op.u.copy.one_d ? n->op.u.copy.kind : n->op.u.copy.p3.kind));
        }
        fprintf(f, "}\"];\n");
    }
    for (size_t i = 0; i < g->n; i++) {
        const struct bs_node *n = g->nodes[i];
        for (size_t j = 0; j < n->ndeps; j++) fprintf(f, "    node%llu -> node%llu;\n", n->deps[j]->id, n->id);
    }
    fprintf(f, "  }\n}\n");
    if (fclose(f) != 0) return bs_set(cudaErrorOperatingSystem);
    return cudaSuccess;
}
