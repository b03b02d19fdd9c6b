/*
 * Mipmapped CUDA arrays (docs/runtime.md, "Arrays, textures and surfaces"). A
 * cudaMipmappedArray_t is our record; its levels are one device allocation, packed one after the
 * other from level 0, level l of extent max(1, e >> l) in each dimension the array has, each
 * row-major and packed like an array's texels. A layered or cubemap array's level holds all its
 * layers (faces), one after the other as an array's layers are: its depth is not halved. Each
 * level is also a cudaArray_t of its own (cudaGetMipmappedArrayLevel), so copies and surfaces
 * reach it as they reach any array; a texture object over the mipmapped array tells the engine the
 * number of levels, and the engine finds level l where this file put it (the engine's Mipmap;
 * docs/semantics.md section 16).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arrays.h"

#define MIPMAP_MAGIC 0x50494d4du /* "MMIP" */

static size_t halve(size_t e, unsigned l) { return e == 0 ? 0 : (e >> l) ? (e >> l) : 1; }

int cudaMallocMipmappedArray(cudaMipmappedArray_t *out, const struct cudaChannelFormatDesc *desc, struct cudaExtent ext, unsigned numLevels,
                             unsigned flags) {
    const char *fn = "cudaMallocMipmappedArray";
    BS_STICKY();
    int c = bs_capture_check_unsafe(fn);
    if (c) return c;
    if (out == NULL || desc == NULL) return bs_array_refuse(fn, cudaErrorInvalidValue, "a null pointer");
    if (flags & ~15u) return bs_array_unmodelled(fn, "flags other than cudaArrayLayered, cudaArraySurfaceLoadStore, cudaArrayCubemap and cudaArrayTextureGather");
    int layered = (flags & 1u) != 0, cube = (flags & 4u) != 0;
    /* "Texture gather can only be performed on 2D CUDA mipmapped arrays, and the gather operations
       are performed only on the most detailed mipmap level" (cudaMallocMipmappedArray): tld4 takes
       no level, so a gather on such an object reads level 0 (textures.c). */
    if ((flags & 8u) && (cube || layered || ext.height == 0 || ext.depth != 0))
        return bs_array_refuse(fn, cudaErrorInvalidValue, "cudaArrayTextureGather on a mipmapped array that is not 2D: texture gather can only be performed on 2D CUDA mipmapped arrays");
    const char *why = NULL;
    size_t texel = bs_texel_bytes(desc, &why);
    if (texel == 0) {
        char m[160];
        snprintf(m, sizeof m, "the channel description is no CUDA array format: %s", why);
        return bs_array_refuse(fn, cudaErrorInvalidChannelDescriptor, m);
    }
    int dims;
    size_t layers = 1;
    if (cube || layered) {
        /* As cudaMalloc3DArray's (arrays.c); "Depth specifies the number of layers, not the depth of a 3D array"
           (cuMipmappedArrayCreate). */
        int e = bs_array_layers_shape(fn, ext, cube, layered, &dims);
        if (e) return e;
        layers = ext.depth;
    } else {
        if (ext.width == 0 || (ext.height == 0 && ext.depth != 0)) return bs_array_refuse(fn, cudaErrorInvalidValue, "a width of 0, or a depth without a height");
        dims = ext.depth ? 3 : ext.height ? 2 : 1;
        /* MaxTexture1DMipmappedWidth, MaxTexture2DMipmapped (device.c); 3D as a 3D array. */
        if ((dims < 3 && (ext.width > 32768 || ext.height > 32768)) || (dims == 3 && (ext.width > 16384 || ext.height > 16384 || ext.depth > 16384)))
            return bs_array_refuse(fn, cudaErrorInvalidValue, "an extent beyond the device's mipmapped texture limits");
    }
    /* "numLevels is clamped to the range [1, 1 + floor(log2(max(width, height, depth)))]" (cudaMallocMipmappedArray);
       a layered or cubemap array's depth counts layers, not texels, so only width and height halve (docs/runtime.md). */
    size_t m = ext.width > ext.height ? ext.width : ext.height;
    if (!layered && !cube && ext.depth > m) m = ext.depth;
    unsigned most = 1;
    while ((m >> most) != 0) most++;
    unsigned levels = numLevels < 1 ? 1 : numLevels > most ? most : numLevels;
    size_t total = 0;
    for (unsigned l = 0; l < levels; l++) {
        size_t h = halve(ext.height, l), d = layered || cube ? layers : halve(ext.depth, l);
        total += halve(ext.width, l) * (h ? h : 1) * (d ? d : 1) * texel;
    }
    void *p = NULL;
    int e = bs_malloc(fn, &p, total);
    if (e) return e;
    cudaMipmappedArray_t mm = calloc(1, sizeof *mm);
    if (mm == NULL) bs_fatal("out of host memory");
    mm->magic = MIPMAP_MAGIC;
    mm->levels = levels;
    size_t at = 0;
    for (unsigned l = 0; l < levels; l++) {
        cudaArray_t a = calloc(1, sizeof *a);
        if (a == NULL) bs_fatal("out of host memory");
        a->magic = BS_ARRAY_MAGIC;
        a->flags = flags;
        a->desc = *desc;
        /* Each level of a layered or cubemap array holds every layer (face): its depth does not halve. */
        a->extent = (struct cudaExtent){halve(ext.width, l), halve(ext.height, l), layered || cube ? ext.depth : halve(ext.depth, l)};
        a->dims = dims;
        a->texel = texel;
        a->pitch = a->extent.width * texel;
        a->slice = a->pitch * (a->extent.height ? a->extent.height : 1);
        a->base = (char *) p + at;
        a->owner = mm;
        at += a->slice * (a->extent.depth ? a->extent.depth : 1);
        bs_handle_add(a);
        mm->level[l] = a;
    }
    bs_handle_add(mm);
    *out = mm;
    return cudaSuccess;
}

cudaMipmappedArray_t bs_mipmap_of(const char *fn, const void *h) {
    if (h == NULL || !bs_handle_live(h) || ((const struct bs_mipmap *) h)->magic != MIPMAP_MAGIC) {
        bs_array_refuse(fn, cudaErrorInvalidValue, "not a live cudaMipmappedArray_t (cudaMallocMipmappedArray makes one)");
        return NULL;
    }
    return (cudaMipmappedArray_t) h;
}

int cudaGetMipmappedArrayLevel(cudaArray_t *levelArray, const void *mipmappedArray, unsigned level) {
    const char *fn = "cudaGetMipmappedArrayLevel";
    BS_STICKY();
    if (levelArray == NULL) return bs_array_refuse(fn, cudaErrorInvalidValue, "a null pointer");
    cudaMipmappedArray_t mm = bs_mipmap_of(fn, mipmappedArray);
    if (mm == NULL) return cudaErrorInvalidValue;
    if (level >= mm->levels) return bs_array_refuse(fn, cudaErrorInvalidValue, "a level not below the array's number of levels");
    *levelArray = mm->level[level];
    return cudaSuccess;
}

int cudaFreeMipmappedArray(cudaMipmappedArray_t mipmappedArray) {
    const char *fn = "cudaFreeMipmappedArray";
    BS_STICKY();
    if (mipmappedArray == NULL) return cudaSuccess;
    int c = bs_capture_check_unsafe(fn);
    if (c) return c;
    cudaMipmappedArray_t mm = bs_mipmap_of(fn, mipmappedArray);
    if (mm == NULL) return cudaErrorInvalidValue;
    int e = bs_free(fn, mm->level[0]->base);
    for (unsigned l = 0; l < mm->levels; l++) {
        bs_handle_remove(mm->level[l]);
        mm->level[l]->magic = 0;
        free(mm->level[l]);
    }
    bs_handle_remove(mm);
    mm->magic = 0;
    free(mm);
    return e;
}
