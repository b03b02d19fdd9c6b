/* A registered kernel and its module, shared by register.c (registration, launches) and
   occupancy.c (what the program may ask of a kernel). */
#ifndef BARRIERSCOPE_FUNCTION_H
#define BARRIERSCOPE_FUNCTION_H

#include "cudart.h"

/* The handle nvcc keeps: it only passes it back, so any pointer-sized first member will do. */
typedef struct bs_module {
    void *unused;
    int id; /* -1: no PTX could be had; every launch of it fails with the reason */
    char *why;
} bs_module;

struct bs_function {
    const void *host_fun;
    bs_module *module;
    char *name;
    int nparams; /* -1 until asked */
    uint32_t *sizes, *offsets; /* each .param's size and offset in the entry's parameter space */
    uint32_t static_shared, local_bytes, const_bytes, cluster[3];
    uint32_t max_threads; /* __launch_bounds__ (.maxntid/.reqntid), else 1024 */
    size_t dyn_shared_max; /* cudaFuncSetAttribute(MaxDynamicSharedMemorySize) */
    int non_portable_cluster; /* cudaFuncSetAttribute(NonPortableClusterSizeAllowed) */
};

/* cudaLaunchConfig_t and cudaLaunchAttribute of CUDA 13's driver_types.h (the value a 64-byte union). */
typedef struct { int id; char pad[4]; union { char bytes[64]; struct { unsigned x, y, z; } cluster; } val; } launch_attribute;
typedef struct { dim3 grid, block; size_t shared; void *stream; launch_attribute *attrs; unsigned nattrs; } launch_config;
#define ATTR_CLUSTER_DIMENSION 4
#define ATTR_COOPERATIVE 2

/* The most CTAs a cluster of f may have: 8, or 16 (an H100's most) once the kernel has
   cudaFuncAttributeNonPortableClusterSizeAllowed. Launches and the occupancy queries ask the same. */
static inline unsigned bs_cluster_most(const struct bs_function *f) { return f->non_portable_cluster ? 16 : 8; }

/* occupancy.c: blocks of f one multiprocessor holds (cudaOccupancyMaxActiveBlocksPerMultiprocessor);
   a cooperative launch may have at most this times the 132 multiprocessors. */
int bs_blocks_per_sm(struct bs_function *f, int64_t block, size_t dyn);

/* register.c: the kernel func names (host stub or handle), its .param sizes asked of the engine. */
int bs_function_facts(const void *func, struct bs_function **out);

/* register.c: a module of PTX text (freed; NULL: why says why not); a kernel of it by name
   (host_fun NULL: known by its record's own address). fatbin.c: the PTX of an image (fat binary,
   nvcc's wrapper of one, or PTX text; NULL and why for anything else). */
bs_module *bs_module_new(char *ptx, const char *why);
/* register.c: a module the engine loads from what b holds for op (b's bytes freed; b NULL: why says
   why not; the engine refusing: refused says). */
bs_module *bs_module_sent(uint32_t op, bs_buf *b, const char *why, const char *refused);
struct bs_function *bs_function_new(bs_module *m, const char *name, const void *host_fun);
char *bs_ptx_of_image(const void *image, const char **why);
/* fatbin.c: the best PTX entry of a fat binary (its header, not nvcc's wrapper), decompressed;
   NULL and why if it has none. linked.c: the module of a program built with -rdc=true, from the
   null-terminated array of its objects' fat binaries. */
char *bs_ptx_of_fatbin(const unsigned char *fb, const char **why);
bs_module *bs_linked_module(void **objects);

#endif
