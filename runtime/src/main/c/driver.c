/*
 * The driver calls a program reaches through cudaGetDriverEntryPoint (as CUTLASS does for
 * cuTensorMapEncodeTiled). A tensor map is written in the engine's own documented 128-byte
 * layout (docs/runtime.md; the engine's TensorMap): u32 magic "TMAP", u32 rank, u64 global
 * address, u32 element size, u32 0, u64 dims[5] at 24, u64 byte strides of dims 1..4 at 64,
 * u32 box[5] at 96, u32 swizzle bytes (0, 32, 64, 128) at 116, u8 traversal strides[5] at 120
 * (0 for 1), u8 interleave bytes (0, 16, 32) at 125, u8 flags at 126 (bit 0: NaN out-of-bounds
 * fill; bit 1: im2col), u8 element type at 127 (1 + its index in the engine's TensorMap.TYPES; 0
 * untyped). An im2col map keeps channelsPerPixel in box[0], pixelsPerColumn in box[1], and the
 * lower and upper corner of spatial dimension j as two signed 16-bit halves in box[2 + j].
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

/* The engine's element-type code (TensorMap.TYPES: U8 U16 U32 S32 U64 S64 F16 F32 F64 BF16 TF32 ...,
 * stored as 1 + index) of a CUtensorMapDataType; tensor reductions need it. The _FTZ variants
 * differ only in how the tensor core reads them, not in what a copy or reduction does. */
static int element_type_code(int type) {
    if (type >= 0 && type <= 9) return type + 1; /* UINT8..BFLOAT16 are TYPES[0..9] in the same order */
    if (type == 10) return 8;                     /* FLOAT32_FTZ: F32 */
    if (type == 11 || type == 12) return 11;      /* TFLOAT32(_FTZ): TF32 */
    return 0;
}

/* FLOAT16, FLOAT32, FLOAT64, BFLOAT16 and the FTZ/TF32 forms: the types NaN fill is defined for. */
static int is_float_type(int type) { return type >= 6 && type <= 12; }

/* One line naming the function and the argument at fault; "not modelled" marks what a GPU accepts and we cannot do. */
static int tensor_map_refused_by(const char *fn, const char *field, const char *why) {
    int unsupported = strstr(why, "not modelled") != NULL;
    fprintf(stderr, "barrierscope: %s: %s: %s (returns CUDA_ERROR_%s)\n", fn, field, why,
            unsupported ? "NOT_SUPPORTED" : "INVALID_VALUE");
    return unsupported ? CUDA_ERROR_NOT_SUPPORTED : CUDA_ERROR_INVALID_VALUE;
}

#define tensor_map_refused(field, why) tensor_map_refused_by(fn, field, why)

/* CU_TENSOR_MAP_SWIZZLE_NONE/32B/64B/128B as the bytes of the span whose 16-byte chunks are
 * swizzled (what the engine's TensorMap holds at byte 116); -1 for the 128B_ATOM_* modes of
 * CUDA 12.8+, which swizzle 32- or 64-byte chunks; -2 for a value that is no mode. */
static int swizzle_bytes(int swizzle) {
    switch (swizzle) {
    case 0: return 0;
    case 1: return 32;
    case 2: return 64;
    case 3: return 128;
    case 4: case 5: case 6: return -1;
    default: return -2;
    }
}

/* The checks cuTensorMapEncodeTiled and cuTensorMapEncodeIm2col share, as the driver documents
 * them (cuda.h); l2Promotion is a cache hint with no effect on results, so any valid value is
 * accepted and dropped. Returns CUDA_SUCCESS or the error, having printed why. */
static int check_common(const char *fn, void *map, int type, unsigned rank, void *global, const uint64_t *dims,
                        const uint64_t *strides, const unsigned *elem_strides, int interleave, int swizzle, int l2, int oob) {
    int e = element_bytes(type);
    int sw = swizzle_bytes(swizzle);
    if (map == NULL) return tensor_map_refused("tensorMap", "a null pointer");
    if (global == NULL) return tensor_map_refused("globalAddress", "a null pointer");
    if (dims == NULL) return tensor_map_refused("globalDim", "a null pointer");
    if (rank > 1 && strides == NULL) return tensor_map_refused("globalStrides", "a null pointer");
    if (rank < 1 || rank > 5) return tensor_map_refused("tensorRank", "must be 1 to 5");
    if (type < 0 || type > 15) return tensor_map_refused("tensorDataType", "no such CUtensorMapDataType");
    if (e == 0) return tensor_map_refused("tensorDataType", "the packed 4- and 6-bit types (CU_TENSOR_MAP_DATA_TYPE_16U4/16U6_*) are not modelled by BarrierScope yet");
    if (interleave < 0 || interleave > 2) return tensor_map_refused("interleave", "no such CUtensorMapInterleave");
    if (interleave != 0 && rank < 3) return tensor_map_refused("interleave", "an interleaved layout needs a tensorRank of 3 or more");
    if (sw == -2) return tensor_map_refused("swizzle", "no such CUtensorMapSwizzle");
    if (sw == -1) return tensor_map_refused("swizzle", "CU_TENSOR_MAP_SWIZZLE_128B_ATOM_* (32- and 64-byte chunks) are not modelled by BarrierScope yet (NONE, 32B, 64B and 128B are)");
    if (interleave == 2 && sw != 32) return tensor_map_refused("swizzle", "with CU_TENSOR_MAP_INTERLEAVE_32B the swizzle must be CU_TENSOR_MAP_SWIZZLE_32B");
    if (l2 < 0 || l2 > 3) return tensor_map_refused("l2Promotion", "no such CUtensorMapL2promotion");
    if (oob < 0 || oob > 1) return tensor_map_refused("oobFill", "no such CUtensorMapFloatOOBfill");
    if (oob != 0 && !is_float_type(type)) return tensor_map_refused("oobFill", "NaN fill (CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA) needs a floating-point tensorDataType");
    if (((uintptr_t) global) % 16 != 0) return tensor_map_refused("globalAddress", "must be 16-byte aligned");
    for (unsigned i = 0; i < rank; i++) {
        if (dims[i] == 0 || dims[i] > (1ull << 32)) return tensor_map_refused("globalDim", "each dimension must be 1 to 2^32");
        /* elementStrides[0] is ignored without interleave, as the driver documents; null reads as all 1. */
        if (elem_strides != NULL && (elem_strides[i] == 0 || elem_strides[i] > 8)) return tensor_map_refused("elementStrides", "each must be 1 to 8");
        if (i > 0 && (strides[i - 1] % 16 != 0 || strides[i - 1] >= (1ull << 40))) return tensor_map_refused("globalStrides", "each must be a multiple of 16 bytes below 2^40");
        if (i > 0 && interleave == 2 && strides[i - 1] % 32 != 0) return tensor_map_refused("globalStrides", "with CU_TENSOR_MAP_INTERLEAVE_32B each must be a multiple of 32 bytes");
    }
    /* cuda.h: "each following dimension specified includes previous dimension stride"
     * (globalStrides[0] = globalDim[0] * elementSize + padding[0], and so on): rows never overlap. */
    for (unsigned i = 1; i < rank; i++) {
        unsigned __int128 inner = i == 1 ? (unsigned __int128) dims[0] * (unsigned) e : (unsigned __int128) strides[i - 2] * dims[i - 1];
        if (strides[i - 1] < inner)
            return tensor_map_refused("globalStrides", "each must include the dimension before it (globalStrides[0] at least globalDim[0] elements, each next at least the previous stride times its dimension): rows would overlap");
    }
    return CUDA_SUCCESS;
}

/* Writes the 128 bytes; box[5] as the layout holds it (im2col: channelsPerPixel, pixelsPerColumn,
 * then the corners), flags bit 1 for an im2col map. */
static void write_map(void *map, int type, unsigned rank, void *global, const uint64_t *dims, const uint64_t *strides,
                      const uint32_t *box, const unsigned *elem_strides, int interleave, int swizzle, int oob, int im2col) {
    unsigned char b[128];
    memset(b, 0, sizeof b);
    uint32_t magic = 0x544D4150, r = rank, es = (uint32_t) element_bytes(type), swb = (uint32_t) swizzle_bytes(swizzle);
    uint64_t base = (uint64_t) (uintptr_t) global;
    memcpy(b, &magic, 4);
    memcpy(b + 4, &r, 4);
    memcpy(b + 8, &base, 8);
    memcpy(b + 16, &es, 4);
    for (unsigned i = 0; i < rank; i++) {
        memcpy(b + 24 + 8 * i, &dims[i], 8);
        if (i > 0) memcpy(b + 64 + 8 * (i - 1), &strides[i - 1], 8);
    }
    memcpy(b + 96, box, 20);
    memcpy(b + 116, &swb, 4);
    for (unsigned i = 0; i < rank; i++) {
        /* Without interleave the stride of dimension 0 is ignored (driver); written as 1 (byte 0). */
        unsigned es_i = elem_strides == NULL || (i == 0 && interleave == 0) ? 1 : elem_strides[i];
        b[120 + i] = (unsigned char) (es_i == 1 ? 0 : es_i);
    }
    b[125] = (unsigned char) (interleave == 0 ? 0 : interleave == 1 ? 16 : 32);
    b[126] = (unsigned char) ((oob != 0) | (im2col ? 2 : 0));
    b[127] = (unsigned char) element_type_code(type);
    memcpy(map, b, sizeof b);
}

static int encode_tiled(void *map, int type, unsigned rank, void *global, const uint64_t *dims, const uint64_t *strides,
                        const unsigned *box, const unsigned *elem_strides, int interleave, int swizzle, int l2, int oob) {
    const char *fn = "cuTensorMapEncodeTiled";
    if (box == NULL && map != NULL && global != NULL && dims != NULL) return tensor_map_refused("boxDim", "a null pointer");
    int err = check_common(fn, map, type, rank, global, dims, strides, elem_strides, interleave, swizzle, l2, oob);
    if (err != CUDA_SUCCESS) return err;
    int e = element_bytes(type);
    int sw = swizzle_bytes(swizzle);
    uint64_t box_bytes = (uint64_t) e;
    uint32_t b[5] = {0, 0, 0, 0, 0};
    for (unsigned i = 0; i < rank; i++) {
        if (box[i] == 0 || box[i] > 256) return tensor_map_refused("boxDim", "each dimension must be 1 to 256");
        box_bytes *= box[i];
        b[i] = box[i];
    }
    if (interleave == 0 && (box[0] * (unsigned) e) % 16 != 0) return tensor_map_refused("boxDim", "without interleave the inner dimension must span a multiple of 16 bytes");
    if (sw > 0 && box[0] * (unsigned) e > (unsigned) sw) return tensor_map_refused("boxDim", "with a swizzle, the inner dimension must span at most the swizzle's bytes (32, 64 or 128)");
    /* PTX ISA 5.5.3.1: a bounding box spans a multiple of 16 bytes (the engine refuses others). */
    if (box_bytes % 16 != 0) return tensor_map_refused("boxDim", "the box must span a multiple of 16 bytes (PTX ISA 5.5.3.1)");
    write_map(map, type, rank, global, dims, strides, b, elem_strides, interleave, swizzle, oob, 0);
    return CUDA_SUCCESS;
}

/* An im2col map (PTX ISA 5.5.4; cuda.h, cuTensorMapEncodeIm2col): rank 3 to 5 (NWC, NHWC,
 * NDHWC); one lower and one upper bounding-box corner per spatial dimension, W first as the
 * dimensions are (dimension 1 onwards), signed within 16 bits for rank 3, 8 for rank 4, 5 for
 * rank 5, and a box of non-zero area; channelsPerPixel 1 to 256, pixelsPerColumn 1 to 1024. The
 * corners are stored as two 16-bit halves, lower first, in box[2 + j]. Interleaved im2col maps
 * are refused as not modelled. */
static int encode_im2col(void *map, int type, unsigned rank, void *global, const uint64_t *dims, const uint64_t *strides,
                         const int *lower, const int *upper, unsigned cpp, unsigned ppc, const unsigned *elem_strides,
                         int interleave, int swizzle, int l2, int oob) {
    const char *fn = "cuTensorMapEncodeIm2col";
    int err = check_common(fn, map, type, rank, global, dims, strides, elem_strides, interleave, swizzle, l2, oob);
    if (err != CUDA_SUCCESS) return err;
    if (rank < 3) return tensor_map_refused("tensorRank", "an im2col map has 3, 4 or 5 dimensions");
    if (lower == NULL) return tensor_map_refused("pixelBoxLowerCorner", "a null pointer");
    if (upper == NULL) return tensor_map_refused("pixelBoxUpperCorner", "a null pointer");
    if (interleave != 0) return tensor_map_refused("interleave", "interleaved im2col maps are not modelled by BarrierScope yet (CU_TENSOR_MAP_INTERLEAVE_NONE is)");
    if (cpp == 0 || cpp > 256) return tensor_map_refused("channelsPerPixel", "must be 1 to 256");
    if (ppc == 0 || ppc > 1024) return tensor_map_refused("pixelsPerColumn", "must be 1 to 1024");
    int e = element_bytes(type);
    int sw = swizzle_bytes(swizzle);
    if ((cpp * (unsigned) e) % 16 != 0) return tensor_map_refused("channelsPerPixel", "without interleave the channels of a pixel must span a multiple of 16 bytes");
    if (sw > 0 && cpp * (unsigned) e > (unsigned) sw) return tensor_map_refused("channelsPerPixel", "with a swizzle, the channels of a pixel must span at most the swizzle's bytes (32, 64 or 128)");
    int lim = rank == 3 ? 32768 : rank == 4 ? 128 : 16;
    uint32_t b[5] = {cpp, ppc, 0, 0, 0};
    for (unsigned j = 0; j + 2 < rank; j++) {
        if (lower[j] < -lim || lower[j] >= lim) return tensor_map_refused("pixelBoxLowerCorner", "each corner offset must lie within the rank's range ([-32768, 32767] for 3, [-128, 127] for 4, [-16, 15] for 5 dimensions)");
        if (upper[j] < -lim || upper[j] >= lim) return tensor_map_refused("pixelBoxUpperCorner", "each corner offset must lie within the rank's range ([-32768, 32767] for 3, [-128, 127] for 4, [-16, 15] for 5 dimensions)");
        if ((int64_t) dims[j + 1] - 1 + upper[j] < lower[j]) return tensor_map_refused("pixelBoxUpperCorner", "the bounding box must have non-zero area");
        b[2 + j] = ((uint32_t) lower[j] & 0xFFFFu) | ((uint32_t) upper[j] << 16);
    }
    write_map(map, type, rank, global, dims, strides, b, elem_strides, interleave, swizzle, oob, 1);
    return CUDA_SUCCESS;
}

/* Points a map built by encode_tiled at another tensor of the same shape. */
static int replace_address(void *map, void *global) {
    uint32_t magic = 0;
    if (map != NULL) memcpy(&magic, map, 4);
    if (map == NULL || magic != 0x544D4150) {
        fprintf(stderr, "barrierscope: cuTensorMapReplaceAddress: tensorMap: not a map cuTensorMapEncodeTiled or cuTensorMapEncodeIm2col wrote (returns CUDA_ERROR_INVALID_VALUE)\n");
        return CUDA_ERROR_INVALID_VALUE;
    }
    if (global == NULL || ((uintptr_t) global) % 16 != 0) {
        fprintf(stderr, "barrierscope: cuTensorMapReplaceAddress: globalAddress: must be 16-byte aligned and not null (returns CUDA_ERROR_INVALID_VALUE)\n");
        return CUDA_ERROR_INVALID_VALUE;
    }
    uint64_t base = (uint64_t) (uintptr_t) global;
    memcpy((unsigned char *) map + 8, &base, 8);
    return CUDA_SUCCESS;
}

/* The engine runs tile and im2col tensor copies, not the W-only .im2col::w forms this map is for,
   so it is refused when it is built, by name, and listed in exec's summary. */
static int encode_im2col_wide(void) {
    bs_unimplemented("cuTensorMapEncodeIm2colWide (im2col::w maps are not modelled: the engine runs tile and im2col tensor copies)");
    return CUDA_ERROR_NOT_SUPPORTED;
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

/* library.c: the driver's library, module and kernel calls, on the runtime's objects. */
int bs_cu_library_load_data(void *, const void *, void *, void **, unsigned, void *, void **, unsigned);
int bs_cu_library_get_kernel(void *, void *, const char *);
int bs_cu_library_unload(void *);
int bs_cu_library_get_global(void **, size_t *, void *, const char *);
int bs_cu_kernel_get_function(void *, void *);
int bs_cu_module_load_data(void *, const void *);
int bs_cu_module_get_global(void **, size_t *, void *, const char *);
int bs_cu_func_set_attribute(void *, int, int);
int bs_cu_kernel_set_attribute(int, int, void *, int);
/* ipc.c: the driver's CUDA IPC calls, on the runtime's handles (only their addresses are taken
   here; two take a 64-byte handle by value). */
int bs_cu_ipc_get_mem_handle(void);
int bs_cu_ipc_open_mem_handle(void);
int bs_cu_ipc_close_mem_handle(void);
int bs_cu_ipc_get_event_handle(void);
int bs_cu_ipc_open_event_handle(void);
static int get_proc_address(const char *symbol, void **pfn, int version, unsigned long long flags, int *status);

static const struct { const char *name; void *fn; } driver[] = {
    {"cuTensorMapEncodeTiled", (void *) encode_tiled},
    {"cuTensorMapReplaceAddress", (void *) replace_address},
    {"cuTensorMapEncodeIm2col", (void *) encode_im2col},
    {"cuTensorMapEncodeIm2colWide", (void *) encode_im2col_wide},
    {"cuLaunchKernelEx", (void *) bs_cu_launch_kernel_ex},
    {"cuLaunchKernel", (void *) bs_cu_launch_kernel},
    {"cuGetErrorString", (void *) get_error_string},
    {"cuGetErrorName", (void *) get_error_name},
    {"cuDriverGetVersion", (void *) driver_get_version},
    {"cuGetProcAddress", (void *) get_proc_address},
    {"cuLibraryLoadData", (void *) bs_cu_library_load_data},
    {"cuLibraryGetKernel", (void *) bs_cu_library_get_kernel},
    {"cuLibraryGetGlobal", (void *) bs_cu_library_get_global},
    {"cuLibraryUnload", (void *) bs_cu_library_unload},
    {"cuKernelGetFunction", (void *) bs_cu_kernel_get_function},
    {"cuKernelSetAttribute", (void *) bs_cu_kernel_set_attribute},
    {"cuModuleLoadData", (void *) bs_cu_module_load_data},
    {"cuModuleGetFunction", (void *) bs_cu_library_get_kernel},
    {"cuModuleGetGlobal", (void *) bs_cu_module_get_global},
    {"cuModuleUnload", (void *) bs_cu_library_unload},
    {"cuFuncSetAttribute", (void *) bs_cu_func_set_attribute},
    {"cuIpcGetMemHandle", (void *) bs_cu_ipc_get_mem_handle},
    {"cuIpcOpenMemHandle", (void *) bs_cu_ipc_open_mem_handle},
    {"cuIpcCloseMemHandle", (void *) bs_cu_ipc_close_mem_handle},
    {"cuIpcGetEventHandle", (void *) bs_cu_ipc_get_event_handle},
    {"cuIpcOpenEventHandle", (void *) bs_cu_ipc_open_event_handle},
};

#define QUERY_SUCCESS 0
#define QUERY_NOT_FOUND 1
#define QUERY_VERSION_NOT_SUFFICIENT 2
#define DRIVER_VERSION 13000

/* build.sh, from cuda13-driver-symbols.txt: every driver function CUDA 13.0 declares, with the
   CUDA version it first appeared in. */
extern const struct bs_driver_symbol { const char *name; unsigned since; } bs_driver_symbols[];
extern const size_t bs_driver_symbol_count;

/* As documented (cudaGetDriverEntryPointByVersion, cuGetProcAddress): a version above the
   driver's is cudaErrorInvalidValue; a name the driver does not have, or one asked for by a
   version before it existed, is cudaSuccess with funcPtr NULL and the status saying which (so a
   program probing for a later driver's function sees it missing). A function the driver has and
   we do not implement gets a pointer that fails when called, named once here. */
int cudaGetDriverEntryPointByVersion(const char *symbol, void **funcPtr, unsigned version, unsigned long long flags, int *status) {
    (void) flags;
    if (symbol == NULL || funcPtr == NULL) return bs_set(cudaErrorInvalidValue);
    if (version > DRIVER_VERSION) {
        fprintf(stderr, "barrierscope: cudaGetDriverEntryPoint(%s): CUDA version %u is above the driver's (%d) "
                        "(returns cudaErrorInvalidValue)\n", symbol, version, DRIVER_VERSION);
        return bs_set(cudaErrorInvalidValue);
    }
    const struct bs_driver_symbol *known = NULL;
    for (size_t i = 0; i < bs_driver_symbol_count && known == NULL; i++)
        if (strcmp(bs_driver_symbols[i].name, symbol) == 0) known = &bs_driver_symbols[i];
    if (known == NULL || version < known->since) {
        *funcPtr = NULL;
        if (status) *status = known == NULL ? QUERY_NOT_FOUND : QUERY_VERSION_NOT_SUFFICIENT;
        return cudaSuccess;
    }
    for (size_t i = 0; i < sizeof driver / sizeof driver[0]; i++) {
        if (strcmp(driver[i].name, symbol) == 0) {
            *funcPtr = driver[i].fn;
            if (status) *status = QUERY_SUCCESS;
            return cudaSuccess;
        }
    }
    /* Named once here; calling it then returns an error instead of jumping to NULL. The lookup
       itself succeeded, so the program's last error stays as it was. */
    char what[160];
    snprintf(what, sizeof what, "%s (driver API, through cudaGetDriverEntryPoint)", symbol);
    int last = bs_last_error();
    bs_unimplemented(what);
    bs_last_error_restore(last);
    *funcPtr = (void *) driver_unimplemented;
    if (status) *status = QUERY_SUCCESS;
    return cudaSuccess;
}

int cudaGetDriverEntryPoint(const char *symbol, void **funcPtr, unsigned long long flags, int *status) {
    return cudaGetDriverEntryPointByVersion(symbol, funcPtr, DRIVER_VERSION, flags, status);
}

int cudaGetDriverEntryPoint_ptsz(const char *symbol, void **funcPtr, unsigned long long flags, int *status) {
    return cudaGetDriverEntryPointByVersion(symbol, funcPtr, DRIVER_VERSION, flags, status);
}

int cudaGetDriverEntryPointByVersion_ptsz(const char *symbol, void **funcPtr, unsigned version, unsigned long long flags, int *status) {
    return cudaGetDriverEntryPointByVersion(symbol, funcPtr, version, flags, status);
}

/* cuGetProcAddress (found through the runtime's entry point): the same table. */
static int get_proc_address(const char *symbol, void **pfn, int version, unsigned long long flags, int *status) {
    if (symbol == NULL || pfn == NULL) return CUDA_ERROR_INVALID_VALUE;
    int saved = bs_last_error(); /* the driver API keeps no last error */
    int e = cudaGetDriverEntryPointByVersion(symbol, pfn, (unsigned) version, flags, status);
    bs_last_error_restore(saved);
    return e == cudaSuccess ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}
