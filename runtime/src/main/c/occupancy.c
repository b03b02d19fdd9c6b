/*
 * What a program may ask of a kernel before it launches it (docs/runtime.md, "What is
 * implemented": properties, occupancy): its attributes, its name, and how many of its blocks or
 * clusters one emulated sm_90a device holds. Registers are not modelled, so they never limit.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "capture.h"
#include "function.h"

/* struct cudaFuncAttributes of CUDA 13 (144 bytes); numRegs is not modelled (the engine has no
   register allocation), so it is reported as 0. */
int cudaFuncGetAttributes(void *attr, const void *func) {
    struct bs_function *f;
    if (attr == NULL) return bs_set(cudaErrorInvalidValue);
    int st = bs_function_facts(func, &f);
    if (st) return st;
    unsigned char *a = attr;
    memset(a, 0, 144);
    uint64_t shared = f->static_shared, cbytes = f->const_bytes, local = f->local_bytes;
    int v;
    memcpy(a + 0, &shared, 8);
    memcpy(a + 8, &cbytes, 8);
    memcpy(a + 16, &local, 8);
    v = (int) f->max_threads; memcpy(a + 24, &v, 4);                  /* maxThreadsPerBlock: __launch_bounds__ */
    v = 90; memcpy(a + 32, &v, 4); memcpy(a + 36, &v, 4);            /* ptxVersion, binaryVersion */
    v = (int) (f->dyn_shared_max > 48 * 1024 ? f->dyn_shared_max : 48 * 1024 - f->static_shared);
    memcpy(a + 44, &v, 4);                                            /* maxDynamicSharedSizeBytes */
    v = -1; memcpy(a + 48, &v, 4);                                    /* preferredShmemCarveout: default */
    v = f->cluster[0] != 0; memcpy(a + 52, &v, 4);
    for (int i = 0; i < 3; i++) memcpy(a + 56 + 4 * i, &f->cluster[i], 4);
    v = f->non_portable_cluster; memcpy(a + 72, &v, 4);               /* nonPortableClusterSizeAllowed */
    return cudaSuccess;
}

/* The kernel's name as the module declares it (mangled, as the driver gives it). */
int cudaFuncGetName(const char **name, const void *func) {
    struct bs_function *f;
    if (name == NULL) return bs_set(cudaErrorInvalidValue);
    int st = bs_function_facts(func, &f);
    if (st) return st;
    *name = f->name;
    return cudaSuccess;
}

/* As documented: the offset and size of parameter paramIndex in the device-side parameter
   layout (the entry's .param space, as the engine lays it out); an index past the last
   parameter is cudaErrorInvalidValue. */
int cudaFuncGetParamInfo(const void *func, size_t index, size_t *offset, size_t *size) {
    struct bs_function *f;
    if (offset == NULL || size == NULL) return bs_set(cudaErrorInvalidValue);
    int st = bs_function_facts(func, &f);
    if (st) return st;
    if (index >= (size_t) f->nparams) {
        fprintf(stderr, "barrierscope: cudaFuncGetParamInfo(%s, %zu): the kernel has %d parameter(s) (returns cudaErrorInvalidValue)\n",
                f->name, index, f->nparams);
        return bs_set(cudaErrorInvalidValue);
    }
    *offset = f->offsets[index];
    *size = f->sizes[index];
    return cudaSuccess;
}

#define SM_SHARED (228 * 1024)
#define BLOCK_RESERVED 1024
#define OPTIN (227 * 1024)

/* Blocks of `func` one multiprocessor holds: threads (2048), blocks (32) and shared memory
   (228 KiB, 1 KiB reserved per block) limit it; registers are not modelled. block: its threads,
   any count (0 when not 1 to the kernel's launch bound, so callers pass a product of dims
   unchecked: such a block cannot launch). */
int bs_blocks_per_sm(struct bs_function *f, int64_t block, size_t dyn) {
    if (block <= 0 || block > f->max_threads || dyn > OPTIN) return 0; /* (a larger dyn would wrap the sum below) */
    int warps = (int) (block + 31) / 32;
    int by_threads = 2048 / (warps * 32);
    size_t per_block = f->static_shared + dyn + BLOCK_RESERVED;
    int by_shared = per_block > OPTIN + BLOCK_RESERVED ? 0 : (int) (SM_SHARED / per_block);
    int n = by_threads < 32 ? by_threads : 32;
    return n < by_shared ? n : by_shared;
}

int cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *num, const void *func, int block, size_t dyn) {
    struct bs_function *f;
    if (num == NULL) return bs_set(cudaErrorInvalidValue);
    int st = bs_function_facts(func, &f);
    if (st) return st;
    *num = bs_blocks_per_sm(f, block, dyn);
    return cudaSuccess;
}

int cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *num, const void *func, int block, size_t dyn, unsigned flags) {
    (void) flags;
    return cudaOccupancyMaxActiveBlocksPerMultiprocessor(num, func, block, dyn);
}

/* The most dynamic shared memory each of numBlocks blocks of blockSize threads may have so that
   they all fit on one multiprocessor (0 when they do not fit even without it). */
int cudaOccupancyAvailableDynamicSMemPerBlock(size_t *dyn, const void *func, int numBlocks, int blockSize) {
    struct bs_function *f;
    if (dyn == NULL || numBlocks <= 0 || blockSize <= 0 || blockSize > 1024) return bs_set(cudaErrorInvalidValue);
    int st = bs_function_facts(func, &f);
    if (st) return st;
    *dyn = 0;
    if (bs_blocks_per_sm(f, blockSize, 0) < numBlocks) return cudaSuccess;
    size_t per_block = SM_SHARED / (size_t) numBlocks - BLOCK_RESERVED - f->static_shared;
    size_t cap = OPTIN - f->static_shared;
    *dyn = per_block < cap ? per_block : cap;
    return cudaSuccess;
}

/* Clusters of the launch's shape the 132 multiprocessors hold at once, as if any multiprocessors
   could form a cluster (a real H100 groups them by GPC, so it may hold fewer). As documented, a
   kernel's required cluster size and the configuration's must agree when both are given, and one
   of them must be (else cudaErrorInvalidClusterSize); more than 8 CTAs need the kernel's
   cudaFuncAttributeNonPortableClusterSizeAllowed, and 16 is an H100's most. */
int cudaOccupancyMaxActiveClusters(int *num, const void *func, const launch_config *config) {
    struct bs_function *f;
    if (num == NULL || config == NULL || (config->nattrs > 0 && config->attrs == NULL)) return bs_set(cudaErrorInvalidValue);
    int st = bs_function_facts(func, &f);
    if (st) return st;
    uint64_t cx = f->cluster[0], cy = f->cluster[1], cz = f->cluster[2];
    const char *why = NULL;
    for (unsigned i = 0; i < config->nattrs && why == NULL; i++) {
        if (config->attrs[i].id != ATTR_CLUSTER_DIMENSION) continue;
        unsigned x = config->attrs[i].val.cluster.x, y = config->attrs[i].val.cluster.y, z = config->attrs[i].val.cluster.z;
        if (cx != 0 && (x != cx || y != cy || z != cz)) why = "the configuration's cluster dimension is not the kernel's required one";
        cx = x; cy = y; cz = z;
    }
    uint64_t size = cx * cy * cz; /* each below 2^32: no overflow in 64 bits */
    unsigned most = bs_cluster_most(f);
    if (why == NULL && size == 0) why = "no cluster dimension: neither the kernel requires one nor the configuration gives one";
    if (why == NULL && size > most) why = f->non_portable_cluster ? "more than 16 CTAs in a cluster"
        : "more than 8 CTAs in a cluster without cudaFuncAttributeNonPortableClusterSizeAllowed";
    if (why != NULL) {
        bs_say("cudaOccupancyMaxActiveClusters", cudaErrorInvalidClusterSize, why);
        return bs_set(cudaErrorInvalidClusterSize);
    }
    uint64_t threads = (uint64_t) config->block.x * config->block.y * config->block.z;
    int per_sm = bs_blocks_per_sm(f, (int64_t) threads, config->shared);
    *num = (int) ((132u * (unsigned) per_sm) / size);
    return cudaSuccess;
}

/* As documented: the configuration's cluster dimensions are ignored; a kernel with a required
   cluster size gets that size; otherwise the portable limit, 8, or 16 (an H100's) once the
   kernel allows non-portable sizes; 0 when not one block of the configuration fits. */
int cudaOccupancyMaxPotentialClusterSize(int *size, const void *func, const launch_config *config) {
    struct bs_function *f;
    if (size == NULL || config == NULL) return bs_set(cudaErrorInvalidValue);
    int st = bs_function_facts(func, &f);
    if (st) return st;
    uint64_t threads = (uint64_t) config->block.x * config->block.y * config->block.z;
    int per_sm = bs_blocks_per_sm(f, (int64_t) threads, config->shared);
    if (f->cluster[0] != 0) *size = (int) (f->cluster[0] * f->cluster[1] * f->cluster[2]);
    else *size = per_sm == 0 ? 0 : (int) bs_cluster_most(f);
    return cudaSuccess;
}
