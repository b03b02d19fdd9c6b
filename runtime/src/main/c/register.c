/*
 * What nvcc's generated host code calls: function and variable registration (fat binaries: fatbin.c),
 * the <<<...>>> configuration stack, and the launches (docs/runtime.md, "What nvcc generates").
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cudart.h"
#include "function.h"
#include "protocol.h"

typedef struct {
    const void *host_var;
    bs_module *module;
    char *name;
    size_t size;
    int constant;
    uint64_t addr; /* 0 until asked */
} bs_var;

static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;
static struct bs_function **funcs;
static size_t nfuncs;
static bs_var *vars;
static size_t nvars;

/* A module the engine loads from what b holds for op (b's bytes freed here); id -1 and why when it
   cannot be had (b NULL: why says already; refused: the engine printed why, `refused` tells). */
bs_module *bs_module_sent(uint32_t op, bs_buf *b, const char *why, const char *refused) {
    bs_module *m = calloc(1, sizeof *m);
    if (m == NULL) bs_fatal("out of host memory");
    bs_buf r = {0};
    m->id = b != NULL && bs_call(op, b, &r) == 0 ? (int) bs_get_u32(&r, 0) : -1;
    if (m->id < 0) m->why = strdup(b != NULL ? refused : why);
    if (b != NULL) free(b->p);
    free(r.p);
    return m;
}

/* A module of PTX text (freed here); ptx NULL: why says why it cannot be had. */
bs_module *bs_module_new(char *ptx, const char *why) {
    bs_buf b = {0};
    if (ptx != NULL) bs_put_str(&b, ptx);
    bs_module *m = bs_module_sent(BS_MODULE, ptx != NULL ? &b : NULL, why,
                                  "its PTX was refused by the engine (`barrierscope exec` printed why)");
    free(ptx);
    return m;
}


void __cudaRegisterFunction(void **handle, const char *hostFun, char *deviceFun, const char *deviceName,
                            int thread_limit, void *tid, void *bid, dim3 *bDim, dim3 *gDim, int *wSize) {
    (void) deviceFun; (void) thread_limit; (void) tid; (void) bid; (void) bDim; (void) gDim; (void) wSize;
    bs_function_new((bs_module *) handle, deviceName, hostFun);
}

/* A kernel of module m by name; host_fun NULL (a library's kernel): known by its own address. */
struct bs_function *bs_function_new(bs_module *m, const char *name, const void *host_fun) {
    struct bs_function *f = calloc(1, sizeof *f);
    if (f == NULL) bs_fatal("out of host memory");
    f->host_fun = host_fun ? host_fun : f;
    f->module = m;
    f->name = strdup(name);
    f->nparams = -1;
    pthread_mutex_lock(&reg_lock);
    funcs = realloc(funcs, (nfuncs + 1) * sizeof *funcs);
    if (funcs == NULL) bs_fatal("out of host memory");
    funcs[nfuncs++] = f;
    pthread_mutex_unlock(&reg_lock);
    return f;
}

void __cudaRegisterVar(void **handle, char *hostVar, char *deviceAddress, const char *deviceName, int ext,
                       size_t size, int constant, int global) {
    (void) deviceAddress; (void) ext; (void) global;
    pthread_mutex_lock(&reg_lock);
    vars = realloc(vars, (nvars + 1) * sizeof *vars);
    if (vars == NULL) bs_fatal("out of host memory");
    vars[nvars++] = (bs_var){hostVar, (bs_module *) handle, strdup(deviceName), size, constant, 0};
    pthread_mutex_unlock(&reg_lock);
}

/* A __managed__ variable: nvcc's host code keeps a pointer to it (hostVarPtrAddress), null until
   __cudaInitModule, which the host code calls before its first access; we point it at the
   variable's device address, mapped in this process (managed.c). */
typedef struct { void **host_ptr; bs_module *module; char *name; size_t size; int done; } bs_managed_var_reg;
static bs_managed_var_reg *mvars;
static size_t nmvars;

void __cudaRegisterManagedVar(void **handle, void **hostVarPtrAddress, char *deviceAddress, const char *deviceName,
                              int ext, size_t size, int constant, int global) {
    __cudaRegisterVar(handle, (char *) hostVarPtrAddress, deviceAddress, deviceName, ext, size, constant, global);
    pthread_mutex_lock(&reg_lock);
    mvars = realloc(mvars, (nmvars + 1) * sizeof *mvars);
    if (mvars == NULL) bs_fatal("out of host memory");
    mvars[nmvars++] = (bs_managed_var_reg){hostVarPtrAddress, (bs_module *) handle, strdup(deviceName), size, 0};
    pthread_mutex_unlock(&reg_lock);
}

char __cudaInitModule(void **handle) {
    for (size_t i = 0; i < nmvars; i++) {
        bs_managed_var_reg *m = &mvars[i];
        if (m->done || m->module != (bs_module *) handle) continue;
        uint64_t a, size;
        char why[300];
        if (bs_symbol(m->host_ptr, &a, &size) != 0) {
            snprintf(why, sizeof why, "__managed__ variable %s: its module did not register with the engine, so the host "
                     "cannot reach it; stopping the program", m->name);
            bs_fatal(why);
        }
        if (bs_managed_var(a, size) != 0) {
            snprintf(why, sizeof why, "__managed__ variable %s: its device address 0x%llx is taken in this process, so "
                     "the host cannot share it (not supported by BarrierScope); stopping the program", m->name, (unsigned long long) a);
            bs_fatal(why);
        }
        *m->host_ptr = (void *) (uintptr_t) a;
        m->done = 1;
    }
    return 1;
}

static struct bs_function *function_of(const void *host_fun) {
    struct bs_function *f = NULL;
    pthread_mutex_lock(&reg_lock);
    for (size_t i = 0; i < nfuncs && f == NULL; i++) if (funcs[i]->host_fun == host_fun || (const void *) funcs[i] == host_fun) f = funcs[i];
    pthread_mutex_unlock(&reg_lock);
    return f;
}

struct bs_function *bs_function_of(const void *host_fun) { return function_of(host_fun); }
const void *bs_function_host(const struct bs_function *f) { return f->host_fun; }
int bs_function_params(const struct bs_function *f, const uint32_t **sizes) {
    *sizes = f->sizes;
    return f->nparams;
}

int bs_symbol(const void *host_var, uint64_t *addr, uint64_t *size) {
    bs_var *v = NULL;
    pthread_mutex_lock(&reg_lock);
    for (size_t i = 0; i < nvars && v == NULL; i++) if (vars[i].host_var == host_var) v = &vars[i];
    pthread_mutex_unlock(&reg_lock);
    if (v == NULL || v->module->id < 0) return cudaErrorInvalidSymbol;
    if (v->addr == 0) {
        bs_buf b = {0}, r = {0};
        bs_put_u32(&b, (uint32_t) v->module->id);
        bs_put_str(&b, v->name);
        uint32_t st = bs_call(BS_SYMBOL, &b, &r);
        if (st == 0) v->addr = bs_get_u64(&r, 0);
        free(b.p);
        free(r.p);
        if (st != 0) return (int) st;
    }
    *addr = v->addr;
    *size = v->size;
    return cudaSuccess;
}

/* Why a registered variable's module cannot run (NULL: not registered, or its module runs). */
const char *bs_symbol_module_why(const void *host_var) {
    const char *why = NULL;
    pthread_mutex_lock(&reg_lock);
    for (size_t i = 0; i < nvars; i++) {
        if (vars[i].host_var == host_var) {
            if (vars[i].module->id < 0) why = vars[i].module->why;
            break;
        }
    }
    pthread_mutex_unlock(&reg_lock);
    return why;
}

int __cudaGetKernel(cudaKernel_t *kernel, const void *hostFun) {
    struct bs_function *f = function_of(hostFun);
    if (kernel) *kernel = f;
    return f ? cudaSuccess : bs_set(cudaErrorInvalidDeviceFunction);
}

/* ---- <<<grid, block, shared, stream>>> --------------------------------------------------------- */

typedef struct { dim3 grid, block; size_t shared; void *stream; } call_config;
static __thread call_config config_stack[16];
static __thread int config_depth;

unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem, void *stream) {
    if (config_depth >= 16) return 1;
    config_stack[config_depth++] = (call_config){gridDim, blockDim, sharedMem, stream};
    return 0;
}

int __cudaPopCallConfiguration(dim3 *gridDim, dim3 *blockDim, size_t *sharedMem, void *stream) {
    if (config_depth == 0) return bs_set(cudaErrorInvalidConfiguration);
    call_config c = config_stack[--config_depth];
    *gridDim = c.grid;
    *blockDim = c.block;
    *sharedMem = c.shared;
    *(void **) stream = c.stream;
    return cudaSuccess;
}

/* The entry's .param sizes, asked once: the argument buffer is an array of pointers only. */
static int param_sizes(struct bs_function *f) {
    if (f->nparams >= 0) return cudaSuccess;
    bs_buf b = {0}, r = {0};
    bs_put_u32(&b, (uint32_t) f->module->id);
    bs_put_str(&b, f->name);
    uint32_t st = bs_call(BS_PARAMS, &b, &r);
    if (st == 0) {
        uint32_t n = bs_get_u32(&r, 0);
        f->sizes = calloc(n ? n : 1, sizeof *f->sizes);
        for (uint32_t i = 0; i < n; i++) f->sizes[i] = bs_get_u32(&r, 4 + 4 * i);
        size_t at = 4 + 4 * (size_t) n;
        f->static_shared = bs_get_u32(&r, at);
        f->local_bytes = bs_get_u32(&r, at + 4);
        f->const_bytes = bs_get_u32(&r, at + 8);
        for (int i = 0; i < 3; i++) f->cluster[i] = bs_get_u32(&r, at + 12 + 4 * i);
        f->max_threads = bs_get_u32(&r, at + 24);
        f->offsets = calloc(n ? n : 1, sizeof *f->offsets);
        for (uint32_t i = 0; i < n; i++) f->offsets[i] = bs_get_u32(&r, at + 28 + 4 * i);
        f->nparams = (int) n;
    }
    free(b.p);
    free(r.p);
    return (int) st;
}

/* A launch's cluster dimension (launch attribute or graph node attribute), as a GPU takes it:
   more than 8 CTAs in a cluster need the kernel's cudaFuncAttributeNonPortableClusterSizeAllowed
   and 16 is an H100's most; else the launch is refused with cudaErrorInvalidClusterSize (named).
   A cluster of 0 (none given) is the kernel's compiled-in one, which nvcc has checked. */
static int cluster_refused(const struct bs_function *f, dim3 c) {
    uint64_t size = (uint64_t) c.x * c.y * c.z;
    if (size <= bs_cluster_most(f)) return cudaSuccess;
    fprintf(stderr, "barrierscope: launch of %s with a %ux%ux%u cluster: %s (returns cudaErrorInvalidClusterSize)\n", f->name, c.x, c.y,
            c.z, size > 16 ? "more than 16 CTAs in a cluster"
                           : "more than 8 CTAs in a cluster need cudaFuncSetAttribute(kernel, "
                             "cudaFuncAttributeNonPortableClusterSizeAllowed, 1) first");
    return bs_set(cudaErrorInvalidClusterSize);
}

/* A launch as stream work: checked, and its arguments copied now (a captured launch keeps them,
   as a GPU does), into the .param bytes the engine reads. */
int bs_kernel_op(struct bs_function *f, dim3 grid, dim3 block, dim3 cluster, size_t shared, void **args, bs_op *op) {
    BS_STICKY();
    if (f == NULL) {
        fprintf(stderr, "barrierscope: a launch of a function that was never registered as a kernel "
                        "(returns cudaErrorInvalidDeviceFunction)\n");
        return bs_set(cudaErrorInvalidDeviceFunction);
    }
    if (f->module->id < 0) {
        fprintf(stderr, "barrierscope: cannot launch %s: %s\n", f->name, f->module->why);
        return bs_set(cudaErrorNoKernelImageForDevice);
    }
    if (shared > 48 * 1024 && shared > f->dyn_shared_max) {
        /* As on the GPU: above 48 KiB the kernel must opt in first. */
        fprintf(stderr, "barrierscope: launch of %s asks for %zu bytes of dynamic shared memory; %s\n", f->name, shared,
                f->dyn_shared_max > 48 * 1024 ? "more than its cudaFuncAttributeMaxDynamicSharedMemorySize allows"
                                              : "above 49152 call cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes) first");
        return bs_set(cudaErrorInvalidValue);
    }
    int st = param_sizes(f);
    if (st != 0) return bs_set(st);
    if ((st = cluster_refused(f, cluster)) != cudaSuccess) return st;
    bs_buf b = {0};
    for (int i = 0; i < f->nparams; i++) {
        if (args == NULL || args[i] == NULL) {
            free(b.p);
            return bs_set(cudaErrorInvalidValue);
        }
        bs_put(&b, args[i], f->sizes[i]);
    }
    memset(op, 0, sizeof *op);
    op->type = BS_OP_KERNEL;
    op->fn = "a kernel launch";
    op->u.kernel.f = f;
    op->u.kernel.grid = grid;
    op->u.kernel.block = block;
    op->u.kernel.cluster = cluster;
    op->u.kernel.shared = shared;
    op->u.kernel.params = b.p;
    op->u.kernel.len = b.len;
    return cudaSuccess;
}

/* The launch on the engine, now. */
int bs_launch_op(const bs_op *op) {
    BS_STICKY();
    struct bs_function *f = op->u.kernel.f;
    if (f->module->id < 0) { /* a graph's kernel whose library was unloaded since the node was made: as bs_kernel_op */
        fprintf(stderr, "barrierscope: cannot launch %s: %s\n", f->name, f->module->why);
        return bs_set(cudaErrorNoKernelImageForDevice);
    }
    int refused = cluster_refused(f, op->u.kernel.cluster); /* a graph node's cluster is set after its op was made */
    if (refused != cudaSuccess) return refused;
    bs_buf b = {0}, r = {0};
    bs_put_u32(&b, (uint32_t) f->module->id);
    bs_put_str(&b, f->name);
    dim3 g = op->u.kernel.grid, k = op->u.kernel.block, c = op->u.kernel.cluster;
    unsigned dims[9] = {g.x, g.y, g.z, k.x, k.y, k.z, c.x, c.y, c.z};
    for (int i = 0; i < 9; i++) bs_put_u32(&b, dims[i]);
    bs_put_u32(&b, (uint32_t) op->u.kernel.shared);
    bs_put_u32(&b, op->u.kernel.cooperative ? BS_LAUNCH_COOPERATIVE : 0);
    if (op->u.kernel.len) bs_put(&b, op->u.kernel.params, op->u.kernel.len);
    int st = (int) bs_managed_launch(&b, &r); /* managed and pinned bytes pushed before, pulled after */
    bs_add_cycles(bs_get_u64(&r, 0));
    free(b.p);
    free(r.p);
    /* A launch that ran and failed makes its error sticky (wire.c: every later call that does
       device work returns it, as on a GPU); a refused configuration is reported by the launch only. */
    if (st == cudaErrorLaunchTimeout || st == cudaErrorIllegalAddress || st == cudaErrorLaunchFailure || st == cudaErrorAssert)
        bs_set_sticky(st);
    return bs_set(st);
}

/* Every form of launch: run now, or recorded when the stream is capturing (streams.c). */
static int launch_as(void *stream, struct bs_function *f, dim3 grid, dim3 block, dim3 cluster, size_t shared, void **args,
                     int cooperative) {
    bs_op op;
    int e = bs_kernel_op(f, grid, block, cluster, shared, args, &op);
    if (e) return e;
    op.u.kernel.cooperative = cooperative;
    if (cooperative) {
        /* "The total number of blocks launched cannot exceed" the occupancy query's blocks per
           multiprocessor times cudaDevAttrMultiProcessorCount (cudaLaunchCooperativeKernel): a GPU
           refuses a larger grid, though every CTA would be resident on the engine. */
        uint64_t blocks = (uint64_t) grid.x * grid.y * grid.z;
        uint64_t threads = (uint64_t) block.x * block.y * block.z;
        int per_sm = bs_blocks_per_sm(f, (int64_t) threads, shared);
        if (per_sm > 0 && blocks > (uint64_t) per_sm * 132) {
            fprintf(stderr, "barrierscope: cooperative launch of %s: %llu blocks, but at most %d per multiprocessor x 132 "
                            "may be resident (returns cudaErrorCooperativeLaunchTooLarge)\n",
                    f->name, (unsigned long long) blocks, per_sm);
            bs_op_free(&op);
            return bs_set(cudaErrorCooperativeLaunchTooLarge);
        }
    }
    return bs_issue(stream, &op);
}

static int bs_launch(void *stream, struct bs_function *f, dim3 grid, dim3 block, dim3 cluster, size_t shared, void **args) {
    return launch_as(stream, f, grid, block, cluster, shared, args, 0);
}

static const dim3 no_cluster = {0, 0, 0};

int __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem, void *stream) {
    return bs_launch(stream, kernel, gridDim, blockDim, no_cluster, sharedMem, args);
}

int cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem, void *stream) {
    return bs_launch(stream, function_of(func), gridDim, blockDim, no_cluster, sharedMem, args);
}

/* Every CTA of a launch is resident on the engine; what a cooperative launch adds is the driver's
   grid-barrier workspace, which cooperative groups' grid.sync() reads from %envreg1:%envreg2
   (the engine gives it; without it grid.sync() traps, as on a GPU). */
int cudaLaunchCooperativeKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem, void *stream) {
    return launch_as(stream, function_of(func), gridDim, blockDim, no_cluster, sharedMem, args, 1);
}


int cudaEventRecord(cudaEvent_t e, cudaStream_t s);

/* A launch with attributes (cudaLaunchKernelEx, cuLaunchKernelEx): the cluster dimension is its
   shape; a programmatic or completion event (ids 7, 12) is recorded after it on its stream (the
   whole grid has ended, so every block has triggered); values are checked as for streams and
   nodes; the rest change nothing the engine models (one grid at a time, all CTAs resident).
   An id that is no cudaLaunchAttributeID is cudaErrorInvalidValue. */
static int launch_with(const char *fn, void *stream, struct bs_function *f, dim3 grid, dim3 block, size_t shared,
                       const launch_attribute *attrs, unsigned n, void **args) {
    if (n > 0 && attrs == NULL) return bs_set(cudaErrorInvalidValue);
    dim3 cluster = no_cluster;
    cudaEvent_t events[2] = {NULL, NULL};
    int e, cooperative = 0;
    for (unsigned i = 0; i < n; i++) {
        int id = attrs[i].id;
        if (id < 0 || id > 16 || id == 15) return bs_set(cudaErrorInvalidValue);
        e = bs_attribute_check(fn, id, (const unsigned char *) attrs[i].val.bytes);
        if (e) return e;
        if (id == ATTR_COOPERATIVE) memcpy(&cooperative, attrs[i].val.bytes, sizeof cooperative);
        if (id == ATTR_CLUSTER_DIMENSION) cluster = (dim3){attrs[i].val.cluster.x, attrs[i].val.cluster.y, attrs[i].val.cluster.z};
        if (id == 7 || id == 12) {
            /* {event, flags, ...}: checked now, so that a bad one refuses the launch rather than follows it */
            int flags;
            memcpy(&events[id == 12], attrs[i].val.bytes, sizeof(cudaEvent_t));
            memcpy(&flags, attrs[i].val.bytes + sizeof(cudaEvent_t), sizeof flags);
            if ((e = bs_launch_event_check(fn, events[id == 12], flags)) != 0) return e;
        }
        if (id == 13 && !bs_stream_capturing(stream)) {
            bs_say(fn, cudaErrorInvalidValue, "cudaLaunchAttributeDeviceUpdatableKernelNode is for graphs only: the stream is not capturing");
            return bs_set(cudaErrorInvalidValue);
        }
    }
    e = launch_as(stream, f, grid, block, cluster, shared, args, cooperative != 0);
    for (int k = 0; k < 2 && e == cudaSuccess; k++) if (events[k] != NULL) e = cudaEventRecord(events[k], stream);
    return e;
}

int cudaLaunchKernelExC(const launch_config *config, const void *func, void **args) {
    if (config == NULL) return bs_set(cudaErrorInvalidValue);
    return launch_with("cudaLaunchKernelExC", config->stream, function_of(func), config->grid, config->block, config->shared,
                       config->attrs, config->nattrs, args);
}

#define FUNC_ATTR_MAX_DYNAMIC_SHARED 8
#define FUNC_ATTR_NON_PORTABLE_CLUSTER 14

/* As documented: the attributes that can be written are 8, 9 and 11 to 15 (cudaFuncAttribute);
   any other, or a value out of its range, is cudaErrorInvalidValue (named). A required cluster
   dimension set at run time would change the launch's shape, which the engine is not given:
   named as not implemented (a compiled-in one cannot be set: cudaErrorNotPermitted, as documented). */
int cudaFuncSetAttribute(const void *func, int attr, int value) {
    BS_STICKY();
    struct bs_function *f = function_of(func);
    if (f == NULL) return bs_set(cudaErrorInvalidDeviceFunction);
    const char *why = NULL;
    if (attr < FUNC_ATTR_MAX_DYNAMIC_SHARED || attr > 15 || attr == 10) why = "not an attribute that can be written";
    else if (attr == FUNC_ATTR_MAX_DYNAMIC_SHARED && (value < 0 || value > 227 * 1024)) why = "more than 227 KiB (cudaDevAttrMaxSharedMemoryPerBlockOptin)";
    else if (attr == 9 && (value < -1 || value > 100)) why = "a shared memory carveout is -1 (default) or a percentage, 0 to 100";
    else if (attr == FUNC_ATTR_NON_PORTABLE_CLUSTER && value != 0 && value != 1) why = "NonPortableClusterSizeAllowed is 0 or 1";
    else if (attr == 15 && (value < 0 || value > 2)) why = "no such cudaClusterSchedulingPolicy";
    else if (attr >= 11 && attr <= 13 && value < 0) why = "a negative cluster dimension";
    if (why != NULL) {
        fprintf(stderr, "barrierscope: cudaFuncSetAttribute (attribute %d, value %d): %s (returns cudaErrorInvalidValue)\n", attr, value, why);
        return bs_set(cudaErrorInvalidValue);
    }
    if (attr >= 11 && attr <= 13) {
        struct bs_function *known;
        int st = bs_function_facts(func, &known);
        if (st) return st;
        if (f->cluster[0] != 0) {
            fprintf(stderr, "barrierscope: cudaFuncSetAttribute: %s has a compiled-in cluster dimension, which cannot be set at run "
                            "time (returns cudaErrorNotPermitted)\n", f->name);
            return bs_set(cudaErrorNotPermitted);
        }
        if (value != 0) return bs_unimplemented("cudaFuncSetAttribute(cudaFuncAttributeRequiredCluster*) above 0 (launch with "
                                                "cudaLaunchAttributeClusterDimension, or __cluster_dims__, instead)");
    }
    if (attr == FUNC_ATTR_MAX_DYNAMIC_SHARED) f->dyn_shared_max = (size_t) value;
    if (attr == FUNC_ATTR_NON_PORTABLE_CLUSTER) f->non_portable_cluster = value;
    /* The carveout and cluster scheduling change nothing the engine models. */
    return cudaSuccess;
}

/* What the program may ask of a kernel (occupancy.c): its record, its .param sizes asked. */
int bs_function_facts(const void *func, struct bs_function **out) {
    struct bs_function *f = function_of(func);
    if (f == NULL) return bs_set(cudaErrorInvalidDeviceFunction);
    if (f->module->id < 0) return bs_set(cudaErrorNoKernelImageForDevice);
    int st = param_sizes(f);
    if (st != 0) return bs_set(st);
    *out = f;
    return cudaSuccess;
}

/* ---- kernel handles and the driver's launch (reached through cudaGetDriverEntryPoint) ---------- */

int cudaGetFuncBySymbol(void **functionPtr, const void *symbolPtr) {
    struct bs_function *f = function_of(symbolPtr);
    if (functionPtr == NULL) return bs_set(cudaErrorInvalidValue);
    *functionPtr = f;
    return f ? cudaSuccess : bs_set(cudaErrorInvalidDeviceFunction);
}

int cudaGetKernel(cudaKernel_t *kernel, const void *entryFuncAddr) { return __cudaGetKernel(kernel, entryFuncAddr); }

/* CUlaunchConfig of CUDA 13's cuda.h; its attributes are laid out as the runtime's. */
typedef struct {
    unsigned gx, gy, gz, bx, by, bz, shared;
    void *stream;
    launch_attribute *attrs;
    unsigned nattrs;
} cu_launch_config;

/* A CUfunction here is the function record cudaGetFuncBySymbol hands out. */
int bs_cu_launch_kernel_ex(const cu_launch_config *c, void *f, void **params, void **extra) {
    if (c == NULL) return cudaErrorInvalidValue;
    if (extra != NULL && extra[0] != NULL) {
        return bs_unimplemented("cuLaunchKernelEx with \"extra\" (a packed argument buffer)");
    }
    BS_DRIVER(launch_with("cuLaunchKernelEx", c->stream, function_of(f), (dim3){c->gx, c->gy, c->gz}, (dim3){c->bx, c->by, c->bz},
                          c->shared, c->attrs, c->nattrs, params));
}

int bs_cu_launch_kernel(void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                        unsigned shared, void *stream, void **params, void **extra) {
    cu_launch_config c = {gx, gy, gz, bx, by, bz, shared, stream, NULL, 0};
    return bs_cu_launch_kernel_ex(&c, f, params, extra);
}
