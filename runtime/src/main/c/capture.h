/* The capture state shared by streams.c (streams, captures) and events.c (events, which carry a
   capture's dependency set from one stream to another); all of it under bs_cap_lock. */
#ifndef BARRIERSCOPE_CAPTURE_H
#define BARRIERSCOPE_CAPTURE_H

#include <pthread.h>

#include "graph.h"

#define STREAM_MAGIC 0x5354524Du
enum { STATUS_NONE = 0, STATUS_ACTIVE = 1, STATUS_INVALIDATED = 2 };

typedef struct bs_capture bs_capture;

/* A stream is a tagged handle, so destroying the default stream (0) or the special handles
   cudaStreamLegacy (1) / cudaStreamPerThread (2), or a handle twice, is an error, not a crash. */
typedef struct bs_stream {
    uint32_t magic;
    unsigned flags;
    bs_capture *cap;        /* the capture this stream takes part in, or NULL */
    cudaGraphNode_t *deps;  /* its dependency set: what its next captured node depends on */
    size_t ndeps, capdeps;
    unsigned char *edges;   /* zeroed cudaGraphEdgeData (8 bytes each) for cudaStreamGetCaptureInfo */
    int priority;           /* within cudaDeviceGetStreamPriorityRange's [-5, 0] (queries.c) */
    unsigned long long id;  /* cudaStreamGetId's, given on first request (0: none yet) */
    unsigned char attrs[17][64]; /* cudaStreamSetAttribute's values, by cudaLaunchAttributeID (queries.c) */
} bs_stream;

struct bs_capture {
    unsigned long long id;
    cudaGraph_t graph;
    int mode, status;
    int into;               /* cudaStreamBeginCaptureToGraph: the graph is the program's, never freed here */
    pthread_t thread;
    bs_stream *origin;
    bs_stream **streams;    /* every stream that joined, origin first */
    size_t nstreams;
};

extern pthread_mutex_t bs_cap_lock;
/* The stream a handle names: NULL for the legacy default stream (0, cudaStreamLegacy); *bad when
   it is no stream of ours. */
bs_stream *bs_stream_of(cudaStream_t s, int *bad);
/* One line naming the call, why, and the error it returns. */
void bs_say(const char *fn, int e, const char *why);
/* Under bs_cap_lock: the active capture with this id (or NULL); s joins capture c; s's
   dependency set made deps, or deps added to it (each node once). */
bs_capture *bs_capture_find(unsigned long long id);
void bs_capture_join(bs_capture *c, bs_stream *s);
void bs_set_deps(bs_stream *s, cudaGraphNode_t const *deps, size_t n);
void bs_add_deps(bs_stream *s, cudaGraphNode_t const *deps, size_t n);

#endif
