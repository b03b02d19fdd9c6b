/*
 * CUDA arrays (docs/runtime.md, "Arrays, textures and surfaces"). A cudaArray_t is our record of
 * the array; its texels are one device allocation, row-major and packed: texel (x, y, z) at
 * base + (z * height + y) * width * texelBytes + x * texelBytes (the layout is opaque to
 * programs, which reach the texels only through copies, textures and surfaces); a layered array's
 * layers are its z (a 1D layered one's slice is one row). Copies to and from arrays become
 * pitched copies (pitched.c) of those texels.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arrays.h"

#define ARRAY_MAGIC BS_ARRAY_MAGIC

int bs_array_refuse(const char *fn, int e, const char *why) {
    bs_say(fn, e, why);
    return bs_set(e);
}

/* Not modelled: named, cudaErrorNotSupported. */
int bs_array_unmodelled(const char *fn, const char *what) {
    char name[256];
    snprintf(name, sizeof name, "%s with %s", fn, what);
    return bs_unimplemented(name);
}

/* ---- arrays ------------------------------------------------------------------------------------- */

/* Bytes per texel of a channel description, or 0 (and the reason) when CUDA arrays cannot hold
   it: 1, 2 or 4 channels from x on, all of one size (8, 16 or 32 bits; float: 16 or 32), kind
   signed, unsigned or float (cuArrayCreate's NumChannels and Format). */
size_t bs_texel_bytes(const struct cudaChannelFormatDesc *d, const char **why) {
    int bits[4] = {d->x, d->y, d->z, d->w}, n = 0;
    while (n < 4 && bits[n] != 0) n++;
    for (int i = n; i < 4; i++) if (bits[i] != 0) return *why = "channels must be x, then y, z, w, without gaps", 0;
    if (n == 0 || n == 3) return *why = "1, 2 or 4 channels", 0;
    for (int i = 0; i < n; i++) if (bits[i] != bits[0]) return *why = "every channel must have the same size", 0;
    if (bits[0] != 8 && bits[0] != 16 && bits[0] != 32) return *why = "channels of 8, 16 or 32 bits", 0;
    if (d->f < 0 || d->f > 2) return *why = "the kind must be cudaChannelFormatKindSigned, Unsigned or Float", 0;
    if (d->f == 2 && bits[0] == 8) return *why = "float channels of 16 or 32 bits", 0;
    return (size_t) n * (size_t) bits[0] / 8;
}

/*
 * The extent of a cubemap (width == height, depth 6, its faces; cubemap layered: depth a multiple
 * of 6, cubemap k's faces layers 6k..6k+5; limits MaxTextureCubemap / MaxTextureCubemapLayered) or
 * of a layered array (depth its number of layers: 1D layered (width, 0, layers), 2D layered
 * (width, height, layers); limits MaxTexture1DLayered / MaxTexture2DLayered; device.c), for
 * cudaMalloc3DArray and cudaMallocMipmappedArray alike. Its dimensions (2, or 1 for 1D
 * layered) in *dims; else the error, having said why.
 */
int bs_array_layers_shape(const char *fn, struct cudaExtent ext, int cube, int layered, int *dims) {
    if (cube) {
        if (ext.width == 0 || ext.width != ext.height) return bs_array_refuse(fn, cudaErrorInvalidValue, "a cubemap's width and height must be equal and not 0");
        if (layered ? ext.depth == 0 || ext.depth % 6 != 0 : ext.depth != 6)
            return bs_array_refuse(fn, cudaErrorInvalidValue, layered ? "a cubemap layered array's depth must be a multiple of 6" : "a cubemap's depth must be 6");
        if (ext.width > 32768 || ext.depth > 2046 * 6) return bs_array_refuse(fn, cudaErrorInvalidValue, "an extent beyond the device's cubemap limits (32768 wide, 2046 cubemaps)");
        *dims = 2;
        return cudaSuccess;
    }
    if (ext.width == 0 || ext.depth == 0) return bs_array_refuse(fn, cudaErrorInvalidValue, "a layered array needs a width and a depth (the number of layers)");
    if (ext.width > 32768 || ext.height > 32768 || ext.depth > 2048)
        return bs_array_refuse(fn, cudaErrorInvalidValue, "an extent beyond the device's layered texture limits (32768 wide and high, 2048 layers)");
    *dims = ext.height ? 2 : 1;
    return cudaSuccess;
}

static int array_new(const char *fn, cudaArray_t *out, const struct cudaChannelFormatDesc *desc, struct cudaExtent ext, unsigned flags) {
    BS_STICKY();
    int c = bs_capture_check_unsafe(fn);
    if (c) return c;
    if (out == NULL || desc == NULL) return bs_array_refuse(fn, cudaErrorInvalidValue, "a null pointer");
    int layered = (flags & 1u) != 0, cube = (flags & 4u) != 0;
    if (flags & ~(unsigned) (1u | 2u | 4u | 8u))
        return bs_array_unmodelled(fn, "flags other than cudaArrayLayered, cudaArraySurfaceLoadStore, cudaArrayCubemap and cudaArrayTextureGather");
    /* "Texture gather can only be performed on 2D CUDA arrays" (cudaMalloc3DArray; cuArray3DCreate):
       a cubemap with cudaArrayTextureGather is an invalid value, as a 1D or 3D one (below). */
    if (cube && (flags & 8u))
        return bs_array_refuse(fn, cudaErrorInvalidValue, "cudaArrayCubemap with cudaArrayTextureGather: texture gather can only be performed on 2D CUDA arrays");
    const char *why = NULL;
    size_t texel = bs_texel_bytes(desc, &why);
    if (texel == 0) {
        char m[160];
        snprintf(m, sizeof m, "the channel description is no CUDA array format: %s", why);
        return bs_array_refuse(fn, cudaErrorInvalidChannelDescriptor, m);
    }
    int dims;
    if (cube || layered) {
        int e = bs_array_layers_shape(fn, ext, cube, layered, &dims);
        if (e) return e;
    } else {
        if (ext.width == 0 || (ext.height == 0 && ext.depth != 0)) return bs_array_refuse(fn, cudaErrorInvalidValue, "a width of 0, or a depth without a height");
        dims = ext.depth ? 3 : ext.height ? 2 : 1;
        /* The device's limits (device.c): MaxTexture1DWidth, 2D width x height, 3D width x height x depth. */
        if ((dims == 1 && ext.width > 131072) || (dims == 2 && (ext.width > 131072 || ext.height > 65536))
            || (dims == 3 && (ext.width > 16384 || ext.height > 16384 || ext.depth > 16384)))
            return bs_array_refuse(fn, cudaErrorInvalidValue, "an extent beyond the device's texture limits");
    }
    if ((flags & 8u) && dims != 2)
        return bs_array_refuse(fn, cudaErrorInvalidValue, "cudaArrayTextureGather on a 1D or 3D array: texture gather can only be performed on 2D CUDA arrays");
    if ((flags & 8u) && !layered && (ext.width > 32768 || ext.height > 32768))
        return bs_array_refuse(fn, cudaErrorInvalidValue, "a gather array beyond cudaDevAttrMaxTexture2DGatherWidth/Height (32768)");
    cudaArray_t a = calloc(1, sizeof *a);
    if (a == NULL) bs_fatal("out of host memory");
    a->magic = ARRAY_MAGIC;
    a->flags = flags;
    a->desc = *desc;
    a->extent = ext;
    a->dims = dims;
    a->texel = texel;
    a->pitch = ext.width * texel;
    a->slice = a->pitch * (ext.height ? ext.height : 1);
    void *p = NULL;
    int e = bs_malloc(fn, &p, a->slice * (ext.depth ? ext.depth : 1));
    if (e) {
        free(a);
        return e;
    }
    a->base = p;
    bs_handle_add(a);
    *out = a;
    return cudaSuccess;
}

int cudaMallocArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc, size_t width, size_t height, unsigned flags) {
    return array_new("cudaMallocArray", array, desc, (struct cudaExtent){width, height, 0}, flags);
}

int cudaMalloc3DArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc, struct cudaExtent extent, unsigned flags) {
    return array_new("cudaMalloc3DArray", array, desc, extent, flags);
}

/* The array behind a handle, or NULL having said why. */
cudaArray_t bs_array_of(const char *fn, const void *h) {
    if (h == NULL || !bs_handle_live(h) || ((const struct bs_array *) h)->magic != ARRAY_MAGIC) {
        bs_array_refuse(fn, cudaErrorInvalidValue, "not a live cudaArray_t (cudaMallocArray or cudaMalloc3DArray makes one)");
        return NULL;
    }
    return (cudaArray_t) h;
}

int cudaFreeArray(cudaArray_t array) {
    BS_STICKY();
    if (array == NULL) return cudaSuccess;
    int c = bs_capture_check_unsafe("cudaFreeArray");
    if (c) return c;
    cudaArray_t a = bs_array_of("cudaFreeArray", array);
    if (a == NULL) return cudaErrorInvalidValue;
    if (a->owner != NULL) return bs_array_refuse("cudaFreeArray", cudaErrorInvalidValue, "a level of a mipmapped array (cudaFreeMipmappedArray frees it)");
    int e = bs_free("cudaFreeArray", a->base);
    bs_handle_remove(a);
    a->magic = 0;
    free(a);
    return e;
}

int cudaArrayGetInfo(struct cudaChannelFormatDesc *desc, struct cudaExtent *extent, unsigned *flags, cudaArray_t array) {
    BS_STICKY();
    cudaArray_t a = bs_array_of("cudaArrayGetInfo", array);
    if (a == NULL) return cudaErrorInvalidValue;
    if (desc) *desc = a->desc;
    if (extent) *extent = a->extent;
    if (flags) *flags = a->flags;
    return cudaSuccess;
}

int cudaGetChannelDesc(struct cudaChannelFormatDesc *desc, const void *array) {
    BS_STICKY();
    cudaArray_t a = bs_array_of("cudaGetChannelDesc", array);
    if (a == NULL) return cudaErrorInvalidValue;
    if (desc == NULL) return bs_array_refuse("cudaGetChannelDesc", cudaErrorInvalidValue, "a null pointer");
    *desc = a->desc;
    return cudaSuccess;
}

/* ---- copies ------------------------------------------------------------------------------------- */

/* cudaMemcpy3D's parameters with each array replaced by its texels as pitched memory (bs_memcpy3d,
   pitched.c): the extent and the array's position are in texels, a pointer's position in bytes
   (the documented units); checked to lie inside each array. */
int bs_array_params(const char *fn, struct cudaMemcpy3DParms *p) {
    size_t texel = 0;
    cudaArray_t arr[2] = {NULL, NULL};
    void *h[2] = {p->srcArray, p->dstArray};
    for (int i = 0; i < 2; i++) {
        if (h[i] == NULL) continue;
        if ((arr[i] = bs_array_of(fn, h[i])) == NULL) return cudaErrorInvalidValue;
        if (texel != 0 && arr[i]->texel != texel) return bs_array_refuse(fn, cudaErrorInvalidValue, "the two arrays' texels differ in size");
        texel = arr[i]->texel;
    }
    struct cudaExtent e = p->extent;
    for (int i = 0; i < 2; i++) {
        cudaArray_t a = arr[i];
        struct cudaPos *pos = i == 0 ? &p->srcPos : &p->dstPos;
        struct cudaPitchedPtr *pp = i == 0 ? &p->srcPtr : &p->dstPtr;
        if (a == NULL) continue; /* a pointer's position is in bytes already */
        size_t h = a->extent.height ? a->extent.height : 1, d = a->extent.depth ? a->extent.depth : 1;
        if (pos->x + e.width > a->extent.width || pos->y + e.height > h || pos->z + e.depth > d
            || pos->x + e.width < pos->x || pos->y + e.height < pos->y || pos->z + e.depth < pos->z)
            return bs_array_refuse(fn, cudaErrorInvalidValue, "the copy reaches outside the array");
        *pp = (struct cudaPitchedPtr){a->base, a->pitch, a->pitch, h};
        pos->x *= a->texel;
    }
    p->extent.width = e.width * texel;
    p->srcArray = p->dstArray = NULL;
    return cudaSuccess;
}

/* The device address of byte wOffset of row hOffset, the copy of width bytes by height rows
   checked to lie inside the array (cudaMemcpy2DToArray's units: bytes and rows). */
static int array_rows(const char *fn, const void *h, size_t wOffset, size_t hOffset, size_t width, size_t height, char **at, size_t *pitch) {
    cudaArray_t a = bs_array_of(fn, h);
    if (a == NULL) return cudaErrorInvalidValue;
    size_t rows = (a->extent.height ? a->extent.height : 1) * (a->extent.depth ? a->extent.depth : 1);
    if (wOffset + width > a->pitch || wOffset + width < wOffset || hOffset + height > rows || hOffset + height < hOffset)
        return bs_array_refuse(fn, cudaErrorInvalidValue, "the copy reaches outside the array");
    *at = a->base + hOffset * a->pitch + wOffset;
    *pitch = a->pitch;
    return cudaSuccess;
}

static int to_array(const char *fn, int async, cudaStream_t st, cudaArray_t dst, size_t wo, size_t ho, const void *src, size_t sp, size_t w, size_t h, int kind) {
    BS_STICKY();
    if (w == 0 || h == 0) return cudaSuccess;
    char *at;
    size_t pitch;
    int e = array_rows(fn, dst, wo, ho, w, h, &at, &pitch);
    return e ? e : bs_memcpy2d(fn, async, st, at, pitch, src, sp, w, h, kind);
}

static int from_array(const char *fn, int async, cudaStream_t st, void *dst, size_t dp, const void *src, size_t wo, size_t ho, size_t w, size_t h, int kind) {
    BS_STICKY();
    if (w == 0 || h == 0) return cudaSuccess;
    char *at;
    size_t pitch;
    int e = array_rows(fn, src, wo, ho, w, h, &at, &pitch);
    return e ? e : bs_memcpy2d(fn, async, st, dst, dp, at, pitch, w, h, kind);
}

int cudaMemcpy2DToArray(cudaArray_t dst, size_t wo, size_t ho, const void *src, size_t sp, size_t w, size_t h, int kind) {
    return to_array("cudaMemcpy2DToArray", 0, NULL, dst, wo, ho, src, sp, w, h, kind);
}
int cudaMemcpy2DToArrayAsync(cudaArray_t dst, size_t wo, size_t ho, const void *src, size_t sp, size_t w, size_t h, int kind, cudaStream_t st) {
    return to_array("cudaMemcpy2DToArrayAsync", 1, st, dst, wo, ho, src, sp, w, h, kind);
}
int cudaMemcpy2DFromArray(void *dst, size_t dp, const void *src, size_t wo, size_t ho, size_t w, size_t h, int kind) {
    return from_array("cudaMemcpy2DFromArray", 0, NULL, dst, dp, src, wo, ho, w, h, kind);
}
int cudaMemcpy2DFromArrayAsync(void *dst, size_t dp, const void *src, size_t wo, size_t ho, size_t w, size_t h, int kind, cudaStream_t st) {
    return from_array("cudaMemcpy2DFromArrayAsync", 1, st, dst, dp, src, wo, ho, w, h, kind);
}

/* The deprecated 1D forms: count bytes from (wOffset, hOffset) on, row after row; the texels are
   packed, so that is one run of bytes, checked to end inside the array. */
static int array_run(const char *fn, const void *h, size_t wo, size_t ho, size_t count, char **at) {
    cudaArray_t a = bs_array_of(fn, h);
    if (a == NULL) return cudaErrorInvalidValue;
    size_t total = a->slice * (a->extent.depth ? a->extent.depth : 1), start = ho * a->pitch + wo;
    if (wo >= a->pitch || ho > total / a->pitch || start > total || count > total - start)
        return bs_array_refuse(fn, cudaErrorInvalidValue, "the copy reaches outside the array");
    *at = a->base + start;
    return cudaSuccess;
}

static int run_copy(const char *fn, int async, cudaStream_t st, void *dst, const void *src, size_t count, int kind) {
    if (count == 0) return cudaSuccess;
    return bs_memcpy2d(fn, async, st, dst, count, src, count, count, 1, kind);
}

/* A 1D form: count bytes between the array h (at wo, ho) and the pointer ptr, into the array when to. */
static int run_array(const char *fn, int async, cudaStream_t st, int to, const void *h, size_t wo, size_t ho, void *ptr, size_t count, int kind) {
    BS_STICKY();
    if (count == 0) return cudaSuccess;
    char *at;
    int e = array_run(fn, h, wo, ho, count, &at);
    return e ? e : run_copy(fn, async, st, to ? at : ptr, to ? ptr : at, count, kind);
}

int cudaMemcpyToArray(cudaArray_t dst, size_t wo, size_t ho, const void *src, size_t count, int kind) {
    return run_array("cudaMemcpyToArray", 0, NULL, 1, dst, wo, ho, (void *) src, count, kind);
}
int cudaMemcpyToArrayAsync(cudaArray_t dst, size_t wo, size_t ho, const void *src, size_t count, int kind, cudaStream_t st) {
    return run_array("cudaMemcpyToArrayAsync", 1, st, 1, dst, wo, ho, (void *) src, count, kind);
}
int cudaMemcpyFromArray(void *dst, const void *src, size_t wo, size_t ho, size_t count, int kind) {
    return run_array("cudaMemcpyFromArray", 0, NULL, 0, src, wo, ho, dst, count, kind);
}
int cudaMemcpyFromArrayAsync(void *dst, const void *src, size_t wo, size_t ho, size_t count, int kind, cudaStream_t st) {
    return run_array("cudaMemcpyFromArrayAsync", 1, st, 0, src, wo, ho, dst, count, kind);
}

int cudaMemcpy2DArrayToArray(cudaArray_t dst, size_t wod, size_t hod, const void *src, size_t wos, size_t hos, size_t w, size_t h, int kind) {
    const char *fn = "cudaMemcpy2DArrayToArray";
    BS_STICKY();
    if (w == 0 || h == 0) return cudaSuccess;
    char *d, *s;
    size_t dp, sp;
    int e = array_rows(fn, dst, wod, hod, w, h, &d, &dp);
    if (!e) e = array_rows(fn, src, wos, hos, w, h, &s, &sp);
    return e ? e : bs_memcpy2d(fn, 0, NULL, d, dp, s, sp, w, h, kind);
}
int cudaMemcpyArrayToArray(cudaArray_t dst, size_t wod, size_t hod, const void *src, size_t wos, size_t hos, size_t count, int kind) {
    const char *fn = "cudaMemcpyArrayToArray";
    BS_STICKY();
    if (count == 0) return cudaSuccess;
    char *d, *s;
    int e = array_run(fn, dst, wod, hod, count, &d);
    if (!e) e = array_run(fn, src, wos, hos, count, &s);
    return e ? e : run_copy(fn, 0, NULL, d, s, count, kind);
}

/* The _ptds forms are the calls themselves; a _ptsz form's stream 0 is the thread's default stream. */
#define PT(s) ((s) == NULL ? (cudaStream_t) (uintptr_t) 2 : (s))
int cudaMemcpy2DToArray_ptds(cudaArray_t d, size_t wo, size_t ho, const void *s, size_t sp, size_t w, size_t h, int k) {
    return cudaMemcpy2DToArray(d, wo, ho, s, sp, w, h, k);
}
int cudaMemcpy2DToArrayAsync_ptsz(cudaArray_t d, size_t wo, size_t ho, const void *s, size_t sp, size_t w, size_t h, int k, cudaStream_t st) {
    return cudaMemcpy2DToArrayAsync(d, wo, ho, s, sp, w, h, k, PT(st));
}
int cudaMemcpy2DFromArray_ptds(void *d, size_t dp, const void *s, size_t wo, size_t ho, size_t w, size_t h, int k) {
    return cudaMemcpy2DFromArray(d, dp, s, wo, ho, w, h, k);
}
int cudaMemcpy2DFromArrayAsync_ptsz(void *d, size_t dp, const void *s, size_t wo, size_t ho, size_t w, size_t h, int k, cudaStream_t st) {
    return cudaMemcpy2DFromArrayAsync(d, dp, s, wo, ho, w, h, k, PT(st));
}
int cudaMemcpy2DArrayToArray_ptds(cudaArray_t d, size_t wod, size_t hod, const void *s, size_t wos, size_t hos, size_t w, size_t h, int k) {
    return cudaMemcpy2DArrayToArray(d, wod, hod, s, wos, hos, w, h, k);
}
int cudaMemcpyArrayToArray_ptds(cudaArray_t d, size_t wod, size_t hod, const void *s, size_t wos, size_t hos, size_t n, int k) {
    return cudaMemcpyArrayToArray(d, wod, hod, s, wos, hos, n, k);
}
int cudaMemcpyToArray_ptds(cudaArray_t d, size_t wo, size_t ho, const void *s, size_t n, int k) { return cudaMemcpyToArray(d, wo, ho, s, n, k); }
int cudaMemcpyToArrayAsync_ptsz(cudaArray_t d, size_t wo, size_t ho, const void *s, size_t n, int k, cudaStream_t st) {
    return cudaMemcpyToArrayAsync(d, wo, ho, s, n, k, PT(st));
}
int cudaMemcpyFromArray_ptds(void *d, const void *s, size_t wo, size_t ho, size_t n, int k) { return cudaMemcpyFromArray(d, s, wo, ho, n, k); }
int cudaMemcpyFromArrayAsync_ptsz(void *d, const void *s, size_t wo, size_t ho, size_t n, int k, cudaStream_t st) {
    return cudaMemcpyFromArrayAsync(d, s, wo, ho, n, k, PT(st));
}
