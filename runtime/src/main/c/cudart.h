/* Declarations shared by the files of BarrierScope's libcudart.so.13 (see wire.c). */
#ifndef BARRIERSCOPE_CUDART_H
#define BARRIERSCOPE_CUDART_H

#include <stddef.h>
#include <stdint.h>

/* The few CUDA types the API needs, laid out as in CUDA 13's driver_types.h / vector_types.h
   (declared here so that building needs no CUDA toolkit). */
typedef struct { unsigned x, y, z; } dim3;
typedef void *cudaStream_t;
typedef void *cudaEvent_t;
typedef struct bs_function *cudaKernel_t;

enum {
    cudaSuccess = 0,
    cudaErrorInvalidValue = 1,
    cudaErrorMemoryAllocation = 2,
    cudaErrorInitializationError = 3,
    cudaErrorInvalidConfiguration = 9,
    cudaErrorInvalidPitchValue = 12,
    cudaErrorInvalidSymbol = 13,
    cudaErrorInvalidDevicePointer = 17,
    cudaErrorInvalidMemcpyDirection = 21,
    cudaErrorInvalidDeviceFunction = 98,
    cudaErrorUnsupportedLimit = 215,
    cudaErrorNoDevice = 100,
    cudaErrorInvalidDevice = 101,
    cudaErrorInvalidKernelImage = 200,
    cudaErrorDeviceUninitialized = 201,
    cudaErrorMapBufferObjectFailed = 205,
    cudaErrorNoKernelImageForDevice = 209,
    cudaErrorInvalidPtx = 218,
    cudaErrorOperatingSystem = 304,
    cudaErrorPeerAccessUnsupported = 217,
    cudaErrorInvalidResourceHandle = 400,
    cudaErrorIllegalState = 401,
    cudaErrorSymbolNotFound = 500,
    cudaErrorNotReady = 600,
    cudaErrorIllegalAddress = 700,
    cudaErrorLaunchTimeout = 702,
    cudaErrorAssert = 710,
    cudaErrorHostMemoryAlreadyRegistered = 712,
    cudaErrorHostMemoryNotRegistered = 713,
    cudaErrorPeerAccessAlreadyEnabled = 704,
    cudaErrorPeerAccessNotEnabled = 705,
    cudaErrorLaunchFailure = 719,
    cudaErrorCooperativeLaunchTooLarge = 720,
    cudaErrorInvalidClusterSize = 912,
    cudaErrorNotPermitted = 800,
    cudaErrorNotSupported = 801,
    cudaErrorStreamCaptureUnsupported = 900,
    cudaErrorStreamCaptureInvalidated = 901,
    cudaErrorStreamCaptureMerge = 902,
    cudaErrorStreamCaptureUnmatched = 903,
    cudaErrorStreamCaptureUnjoined = 904,
    cudaErrorStreamCaptureIsolation = 905,
    cudaErrorStreamCaptureImplicit = 906,
    cudaErrorCapturedEvent = 907,
    cudaErrorStreamCaptureWrongThread = 908,
    cudaErrorGraphExecUpdateFailure = 910,
    cudaErrorUnknown = 999
};

/* A growable byte buffer for messages. */
typedef struct { char *p; size_t len, cap; } bs_buf;

void bs_put(bs_buf *b, const void *p, size_t n);
void bs_put_u32(bs_buf *b, uint32_t v);
void bs_put_u64(bs_buf *b, uint64_t v);
void bs_put_str(bs_buf *b, const char *s);
uint32_t bs_get_u32(const bs_buf *b, size_t at);
uint64_t bs_get_u64(const bs_buf *b, size_t at);
uint32_t bs_call(uint32_t op, const bs_buf *req, bs_buf *reply);
/* wire.c: takes (1) or releases (0) the connection's lock, for managed.c's fork handlers. */
void bs_wire_hold(int hold);
uint32_t bs_call_locked(uint32_t op, const bs_buf *req, bs_buf *reply);

void bs_fatal(const char *what) __attribute__((noreturn));
int bs_set(int e);
/* The runtime's last error, and putting it back (the driver's calls leave it as it was). */
int bs_last_error(void);
void bs_last_error_restore(int e);
#define BS_DRIVER(call) do { int saved_ = bs_last_error(); int e_ = (call); bs_last_error_restore(saved_); return e_; } while (0)
/* The sticky error (0: none); each call that does device work starts with BS_STICKY(). */
int bs_sticky(void);
void bs_set_sticky(int e);
#define BS_STICKY() do { int sticky_ = bs_sticky(); if (sticky_ != 0) return sticky_; } while (0)
int bs_unimplemented(const char *name);
/* handles.c: the live handles (streams, events, graphs, nodes, executable graphs, pools): added
   when made, removed before freed; live: whether h is one (nothing behind h is read). */
void bs_handle_add(const void *h);
void bs_handle_remove(const void *h);
int bs_handle_live(const void *h);
char *bs_zstd(const unsigned char *src, size_t n, size_t out_size, const char **why);

/* memory.c: whether [p, p+n) lies in one device allocation. */
int bs_is_device(const void *p, size_t n);
/* memory.c: cudaMemcpy and cudaMemset under the name fn (kind: cudaMemcpyKind). */
int bs_copy(const char *fn, void *dst, const void *src, size_t count, int kind);
int bs_memset(const char *fn, void *devPtr, int value, size_t count);
/* memory.c: whether [p, p+n) is device memory the engine knows (an allocation or a variable),
   asked of the engine when it is not an allocation; 0 also when it is not. */
int bs_check_device(const void *p, size_t n);
/* memory.c: whether the engine holds [p, p+n) (asked of it, whatever this process's list says). */
int bs_engine_holds(const void *p, size_t n);
/* managed.c: whether [p, p+n) lies in one allocation whose bytes this process holds between
   launches (BS_MANAGED, BS_PINNED host memory, BS_REGISTERED host memory, 0 none); cudaFree of a managed one and
   cudaFreeHost of a pinned one (1 if p is one); pinned allocations and their flags. */
enum { BS_MANAGED = 1, BS_PINNED = 2, BS_REGISTERED = 3 };
int bs_managed(const void *p, size_t n);
int bs_free_managed(void *p);
int bs_free_host(void *p);
int bs_host_alloc(const char *fn, void **ptr, size_t size, unsigned flags);
int bs_host_flags(const void *p, unsigned *flags);
/* managed.c: cudaHostRegister's range given to the engine at its own address (read-only for the
   device with cudaHostRegisterReadOnly), and cudaHostUnregister; cudaError_t values. */
int bs_host_register(void *p, size_t size, unsigned flags);
int bs_host_unregister(void *p);
/* managed.c: a BS_LAUNCH request, with the changed bytes of managed, pinned and registered memory
   sent before it and the bytes the kernel changed there written back after it. */
uint32_t bs_managed_launch(const bs_buf *req, bs_buf *reply);
/* graph_cond.c: arms (1) or disarms (0) the conditional slots of this thread's running graph launch, if
   any, around each kernel launch of it (bs_managed_launch, under its lock): only that launch's kernels
   find them armed, so a kernel of another launch setting one is diagnosed. */
void bs_cond_arm(int on);
int bs_managed_var(uint64_t a, uint64_t size);
uint64_t bs_managed_bytes(void);
/* register.c: the device address and size of a registered variable (by its host shadow). */
int bs_symbol(const void *host_var, uint64_t *addr, uint64_t *size);
/* register.c: why a registered variable's module cannot run (NULL: unregistered, or it runs). */
const char *bs_symbol_module_why(const void *host_var);
const char *cudaGetErrorString(int e);
const char *cudaGetErrorName(int e);

/* misc.c: virtual cycles of every launch so far (events read it). */
void bs_add_cycles(uint64_t c);
uint64_t bs_cycles(void);

/* The layout of CUDA 13's driver_types.h (pitched.c copies them, graph nodes keep them). */
struct cudaPitchedPtr { void *ptr; size_t pitch, xsize, ysize; };
struct cudaExtent { size_t width, height, depth; };
struct cudaPos { size_t x, y, z; };
struct cudaMemcpy3DParms {
    void *srcArray;
    struct cudaPos srcPos;
    struct cudaPitchedPtr srcPtr;
    void *dstArray;
    struct cudaPos dstPos;
    struct cudaPitchedPtr dstPtr;
    struct cudaExtent extent;
    int kind;
};
int cudaMemcpy3D(const struct cudaMemcpy3DParms *p);

/*
 * One piece of stream work (a graph node's work too): issued on a stream it runs at once, or,
 * on a capturing stream, is recorded into the capture's graph (streams.c); a graph launch runs
 * the recorded ones (graph.c). The type numbers are cudaGraphNodeType's.
 */
enum { BS_OP_KERNEL = 0, BS_OP_MEMCPY = 1, BS_OP_MEMSET = 2, BS_OP_HOST = 3, BS_OP_CHILD = 4, BS_OP_EMPTY = 5,
       BS_OP_WAIT_EVENT = 6, BS_OP_EVENT_RECORD = 7, BS_OP_MEMALLOC = 10, BS_OP_MEMFREE = 11, BS_OP_COND = 13 };
typedef struct {
    int type;
    const char *fn; /* the API that issued it, for messages */
    union {
        struct { struct bs_function *f; dim3 grid, block, cluster; size_t shared; char *params; size_t len; int cooperative; } kernel;
        /* one_d: dst, src, count, kind (cudaMemcpy); else p3 (cudaMemcpy3D) */
        struct { int one_d; void *dst; const void *src; size_t count; int kind; struct cudaMemcpy3DParms p3; } copy;
        struct { void *dst; size_t pitch; unsigned value, element_size; size_t width, height, depth, slice; } set;
        struct { void (*fn)(void *); void *data; } host;
        struct { uint64_t addr, size; } mem; /* a graph allocation (pool.c) */
        struct { void *ops; size_t n; } child; /* a child graph: its ops (bs_op), in its order */
        struct { cudaEvent_t event; } ev;      /* an event record or wait node's event (events.c) */
        /* a conditional node (graph_cond.c): in a graph, its body graphs (the node owns them); in an
           executable graph or a child op, kids instead: one BS_OP_CHILD op per body, snapshot */
        struct { uint64_t handle; int kind; unsigned size; struct bs_graph **bodies; void *kids; } cond;
    } u;
} bs_op;

/* streams.c: issue op on stream: run it now (bs_run_op) or record it into the stream's capture.
   Takes ownership of a kernel op's params. */
int bs_issue(cudaStream_t stream, bs_op *op);
/* streams.c: whether a call that is not stream work (fn) may run now; else the capture error. */
int bs_capture_check_unsafe(const char *fn);
int bs_capture_check_legacy(const char *fn);
int bs_capture_check_sync(const char *fn);
/* events.c: an event record or wait node's run. */
int bs_event_op_run(const bs_op *op);
/* graph.c: run one op now; copy one (params included), or n of them into a new array; free what it owns. */
int bs_run_op(const bs_op *op);
void bs_op_copy(bs_op *dst, const bs_op *src);
bs_op *bs_ops_copy(const bs_op *src, size_t n);
void bs_op_free(bs_op *op);
/* graph.c: a new node of graph g, depending on deps (checked by the caller). */
typedef struct bs_graph *cudaGraph_t;
typedef struct bs_node *cudaGraphNode_t;
int bs_graph_new(cudaGraph_t *g);
cudaGraphNode_t bs_graph_add(cudaGraph_t g, const cudaGraphNode_t *deps, size_t ndeps, bs_op *op);
void bs_graph_free(cudaGraph_t g);
/* register.c: a kernel launch as an op: checked and its arguments copied (stream: for capture). */
int bs_kernel_op(struct bs_function *f, dim3 grid, dim3 block, dim3 cluster, size_t shared, void **args, bs_op *op);
struct bs_function *bs_function_of(const void *host_fun);
const void *bs_function_host(const struct bs_function *f);
int bs_function_params(const struct bs_function *f, const uint32_t **sizes); /* count, after a bs_kernel_op */
int bs_launch_op(const bs_op *op);
/* streams.c: whether stream work that cannot be captured (fn) may run on stream now: 0, or the
   error (a capturing stream: its capture is invalidated). */
int bs_stream_uncapturable(cudaStream_t stream, const char *fn);
/* graph.c: whether every node of need is one of tips or an ancestor of one. */
int bs_graph_all_reach(cudaGraph_t g, cudaGraphNode_t const *tips, size_t ntips, cudaGraphNode_t const *need, size_t nneed);
/* pitched.c: cudaMemcpy3D and a 1-byte memset of rows and slices under the name fn; a 2D copy
   under the name fn, as stream work (async) or now (capture-checked, bs_memcpy3d). */
int bs_memcpy3d(const char *fn, const struct cudaMemcpy3DParms *p);
int bs_memcpy2d(const char *fn, int async, cudaStream_t stream, void *dst, size_t dpitch, const void *src, size_t spitch,
                size_t width, size_t height, int kind);
int bs_memset_rows(const char *fn, void *dst, size_t pitch, size_t slice, int value, size_t width, size_t height, size_t depth);
/* memory.c: cudaMalloc and cudaFree without the stream-capture check, for the call fn (named in
   a refusal: cudaMallocAsync's is its own); pool.c: a freed pointer leaves its pool's count (0
   if it was no pool's). */
int bs_malloc(const char *fn, void **devPtr, size_t size);
int bs_free(const char *fn, void *devPtr);
void bs_pool_forget(void *p);
/* pool.c: graph allocations. A reference from an op (copied or freed); an alloc or free node's
   run; whether p is one, freed by cudaFree (-1: it is not one); the check before a launch. */
void bs_graph_alloc_ref(uint64_t addr, int delta);
int bs_graph_alloc_run(const bs_op *op);
int bs_graph_alloc_free(void *p);
int bs_graph_alloc_relaunch(const bs_op *op, int auto_free);
/* pool.c: a new graph allocation and the op of its alloc node; executable graphs holding one
   (delta 0: how many; only one may exist); whether p is one. */
int bs_graph_alloc_new(const char *fn, size_t size, bs_op *op);
int bs_graph_alloc_execs(uint64_t addr, int delta);
int bs_is_graph_alloc(const void *p);
/* memory.c: the device address of count bytes at offset in a registered variable (checked, named). */
int bs_symbol_range(const char *fn, const void *symbol, size_t count, size_t offset, uint64_t *addr);
/* queries.c: whether a 64-byte cudaLaunchAttributeValue of attribute id is one the documentation
   allows (else named, cudaErrorInvalidValue). */
int bs_attribute_check(const char *fn, int id, const unsigned char *v);
/* events.c: a launch attribute's event and record flags as documented (else named, cudaErrorInvalidValue). */
int bs_launch_event_check(const char *fn, cudaEvent_t e, int flags);
/* The emulated device's clock in kHz (cudaDevAttrClockRate, device.c), which also turns an event's
   virtual cycles into milliseconds (events.c). */
#define BS_CLOCK_KHZ 1755000
/* memory.c, for ipc.c: this process's allocation holding p (0: cudaMalloc's; 1: none; 2: another
   call's, named in *fn; 3: an opened IPC mapping); an opened mapping counted in (returns its
   reference count) and out (returns what is left, -1 when base is no opened mapping). */
int bs_ipc_export_range(const void *p, uint64_t *base, uint64_t *size, const char **fn);
unsigned bs_ipc_map(uint64_t base, uint64_t size);
long bs_ipc_unmap(uint64_t base);
/* events.c, for ipc.c: an event's cudaEventCreateWithFlags flags (-1: no live event). */
int bs_event_flags(cudaEvent_t e);
/* One line naming fn, why, and the error it returns. */
void bs_say(const char *fn, int e, const char *why);
/* streams.c: whether the stream takes part in a capture. */
int bs_stream_capturing(cudaStream_t stream);

#endif
