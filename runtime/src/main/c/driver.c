/*
 * The driver calls a program reaches through cudaGetDriverEntryPoint (as CUTLASS does for
 * cuTensorMapEncodeTiled). A tensor map is written in the engine's own documented 128-byte
 * layout (docs/runtime.md; the engine's TensorMap): u32 magic "TMAP", u32 rank, u64 global
 * address, u32 element size, u32 0, u64 dims[5] at 24, u64 byte strides of dims 1..4 at 64,
 * u32 box[5] at 96.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "cudart.h"

enum { CUDA_SUCCESS = 0, CUDA_ERROR_INVALID_VALUE = 1, CUDA_ERROR_NOT_SUPPORTED = 801 };

static int element_bytes(int type) {
    switch (type) {
    case 0: return 1;                  /* UINT8 */
    case 1: case 6: case 9: return 2;  /* UINT16, FLOAT16, BFLOAT16 */
    case 2: case 3: case 7: case 10: case 11: case 12: return 4; /* UINT32, INT32, FLOAT32(_FTZ), TFLOAT32(_FTZ) */
    case 4: case 5: case 8: return 8;  /* UINT64, INT64, FLOAT64 */
    default: return 0;                 /* the packed 16U4/16U6 types */
    }
}

static int tensor_map_refused(const char *why) {
    fprintf(stderr, "barrierscope: cuTensorMapEncodeTiled: %s (returns CUDA_ERROR_%s)\n", why,
            strstr(why, "not modelled") ? "NOT_SUPPORTED" : "INVALID_VALUE");
    return strstr(why, "not modelled") ? CUDA_ERROR_NOT_SUPPORTED : CUDA_ERROR_INVALID_VALUE;
}

static int encode_tiled(void *map, int type, unsigned rank, void *global, const uint64_t *dims, const uint64_t *strides,
                        const unsigned *box, const unsigned *elem_strides, int interleave, int swizzle, int l2, int oob) {
    (void) l2;
    int e = element_bytes(type);
    if (map == NULL || global == NULL || dims == NULL || box == NULL || (rank > 1 && strides == NULL)) return tensor_map_refused("a null argument");
    if (rank < 1 || rank > 5) return tensor_map_refused("the rank must be 1 to 5");
    if (e == 0) return tensor_map_refused("packed 4- and 6-bit element types are not modelled by BarrierScope yet");
    if (interleave != 0) return tensor_map_refused("interleaved layouts are not modelled by BarrierScope yet");
    if (swizzle != 0) return tensor_map_refused("swizzled shared-memory layouts (CU_TENSOR_MAP_SWIZZLE_*) are not modelled by BarrierScope yet");
    if (oob != 0) return tensor_map_refused("NaN out-of-bounds fill is not modelled by BarrierScope yet (zero fill is)");
    if (((uintptr_t) global) % 16 != 0) return tensor_map_refused("the global address must be 16-byte aligned");
    for (unsigned i = 0; i < rank; i++) {
        if (dims[i] == 0 || dims[i] > (1ull << 32)) return tensor_map_refused("each global dimension must be 1 to 2^32");
        if (box[i] == 0 || box[i] > 256) return tensor_map_refused("each box dimension must be 1 to 256");
        if (elem_strides != NULL && elem_strides[i] != 1) return tensor_map_refused("element strides other than 1 are not modelled by BarrierScope yet");
        if (i > 0 && strides[i - 1] % 16 != 0) return tensor_map_refused("global strides must be multiples of 16 bytes");
    }
    if ((box[0] * (unsigned) e) % 16 != 0) return tensor_map_refused("the box's inner dimension must span a multiple of 16 bytes");
    unsigned char b[128];
    memset(b, 0, sizeof b);
    uint32_t magic = 0x544D4150, r = rank, es = (uint32_t) e;
    uint64_t base = (uint64_t) (uintptr_t) global;
    memcpy(b, &magic, 4);
    memcpy(b + 4, &r, 4);
    memcpy(b + 8, &base, 8);
    memcpy(b + 16, &es, 4);
    for (unsigned i = 0; i < rank; i++) {
        memcpy(b + 24 + 8 * i, &dims[i], 8);
        memcpy(b + 96 + 4 * i, &box[i], 4);
        if (i > 0) memcpy(b + 64 + 8 * (i - 1), &strides[i - 1], 8);
    }
    memcpy(map, b, sizeof b);
    return CUDA_SUCCESS;
}

static int get_error_string(int e, const char **s) {
    if (s == NULL) return CUDA_ERROR_INVALID_VALUE;
    *s = cudaGetErrorString(e); /* the driver's codes we return share the runtime's numbers and texts */
    return CUDA_SUCCESS;
}

static int get_error_name(int e, const char **s) {
    if (s == NULL) return CUDA_ERROR_INVALID_VALUE;
    *s = cudaGetErrorName(e); /* the runtime's name of the same code (cudaError..., not CUDA_ERROR_...) */
    return CUDA_SUCCESS;
}

static int driver_get_version(int *v) {
    if (v == NULL) return CUDA_ERROR_INVALID_VALUE;
    *v = 13000;
    return CUDA_SUCCESS;
}

/* What any other driver function found through the entry point does when called. */
static int driver_unimplemented(void) {
    fprintf(stderr, "barrierscope: a driver function obtained through cudaGetDriverEntryPoint is not implemented "
                    "(its name was printed when it was looked up); it returns CUDA_ERROR_NOT_SUPPORTED\n");
    return CUDA_ERROR_NOT_SUPPORTED;
}

int bs_cu_launch_kernel_ex(const void *config, void *f, void **params, void **extra);
int bs_cu_launch_kernel(void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                        unsigned shared, void *stream, void **params, void **extra);

static const struct { const char *name; void *fn; } driver[] = {
    {"cuTensorMapEncodeTiled", (void *) encode_tiled},
    {"cuLaunchKernelEx", (void *) bs_cu_launch_kernel_ex},
    {"cuLaunchKernel", (void *) bs_cu_launch_kernel},
    {"cuGetErrorString", (void *) get_error_string},
    {"cuGetErrorName", (void *) get_error_name},
    {"cuDriverGetVersion", (void *) driver_get_version},
};

#define QUERY_SUCCESS 0
#define QUERY_NOT_FOUND 1

int cudaGetDriverEntryPointByVersion(const char *symbol, void **funcPtr, unsigned version, unsigned long long flags, int *status) {
    (void) version; (void) flags;
    if (symbol == NULL || funcPtr == NULL) return bs_set(cudaErrorInvalidValue);
    for (size_t i = 0; i < sizeof driver / sizeof driver[0]; i++) {
        if (strcmp(driver[i].name, symbol) == 0) {
            *funcPtr = driver[i].fn;
            if (status) *status = QUERY_SUCCESS;
            return cudaSuccess;
        }
    }
    /* Named once here; calling it then returns an error instead of jumping to NULL. */
    char what[160];
    snprintf(what, sizeof what, "%s (driver API, through cudaGetDriverEntryPoint)", symbol);
    bs_unimplemented(what);
    bs_set(cudaSuccess);
    *funcPtr = (void *) driver_unimplemented;
    if (status) *status = QUERY_SUCCESS;
    return cudaSuccess;
}

int cudaGetDriverEntryPoint(const char *symbol, void **funcPtr, unsigned long long flags, int *status) {
    return cudaGetDriverEntryPointByVersion(symbol, funcPtr, 13000, flags, status);
}

int cudaGetDriverEntryPoint_ptsz(const char *symbol, void **funcPtr, unsigned long long flags, int *status) {
    return cudaGetDriverEntryPointByVersion(symbol, funcPtr, 13000, flags, status);
}

int cudaGetDriverEntryPointByVersion_ptsz(const char *symbol, void **funcPtr, unsigned version, unsigned long long flags, int *status) {
    return cudaGetDriverEntryPointByVersion(symbol, funcPtr, version, flags, status);
}
