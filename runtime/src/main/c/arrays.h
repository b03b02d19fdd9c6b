/* CUDA arrays, shared by arrays.c (arrays and their copies) and textures.c (texture and surface objects). */
#ifndef BARRIERSCOPE_ARRAYS_H
#define BARRIERSCOPE_ARRAYS_H

#include "cudart.h"

enum { cudaErrorInvalidChannelDescriptor = 20 };

struct cudaChannelFormatDesc { int x, y, z, w, f; };

typedef struct bs_array {
    uint32_t magic;
    unsigned flags;
    struct cudaChannelFormatDesc desc;
    struct cudaExtent extent; /* as given: 0 for an absent height or depth */
    int dims; /* 1, 2 or 3; a layered array's (flags & cudaArrayLayered) is 1 or 2, its depth the layers; a cubemap's
                 (flags & cudaArrayCubemap) 2, its depth 6 faces per cubemap */
    size_t texel, pitch, slice;
    char *base;
    const void *owner; /* the mipmapped array a level belongs to (cudaGetMipmappedArrayLevel), else NULL */
} *cudaArray_t;

#define BS_ARRAY_MAGIC 0x41525259u /* "YRRA" */

/* Bytes per texel of a channel description, or 0 with the reason (arrays.c). */
size_t bs_texel_bytes(const struct cudaChannelFormatDesc *d, const char **why);
/* The array behind a handle, or NULL having said why (cudaErrorInvalidValue set; arrays.c). */
cudaArray_t bs_array_of(const char *fn, const void *h);
/* One line naming fn and why, the error set and returned; a form not modelled, named (arrays.c). */
int bs_array_refuse(const char *fn, int e, const char *why);
int bs_array_unmodelled(const char *fn, const char *what);
/* A cubemap's or layered array's extent checked as cudaMalloc3DArray's; its dims, or the error said (arrays.c). */
int bs_array_layers_shape(const char *fn, struct cudaExtent ext, int cube, int layered, int *dims);

/* A mipmapped array (mipmaps.c): its levels packed one after the other in one allocation, level l
   of extent max(1, e >> l) in each dimension the array has, each a cudaArray_t of its own (level 0's
   base, format and extent are the whole array's). */
typedef struct bs_mipmap {
    uint32_t magic;
    unsigned levels;
    cudaArray_t level[17];
} *cudaMipmappedArray_t;
/* The mipmapped array behind a handle, or NULL having said why (mipmaps.c). */
cudaMipmappedArray_t bs_mipmap_of(const char *fn, const void *h);

#endif
