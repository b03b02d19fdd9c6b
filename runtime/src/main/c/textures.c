/*
 * Texture and surface objects (docs/runtime.md, "Arrays, textures and surfaces"). An object is
 * the device address of a 128-byte descriptor this file writes into a device allocation of its
 * own, in the engine's layout (the engine's TextureObject; docs/semantics.md section 16): the
 * handle a kernel gets as its parameter is that address, so tex/tld4/suld/sust/txq/suq read the
 * descriptor from device memory, and a launch bundle carries it like any other allocation.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arrays.h"

enum { H2D = 1 };

struct cudaResourceDesc {
    int resType; /* 0 array, 1 mipmapped array, 2 linear, 3 pitch2D */
    union {
        struct { cudaArray_t array; } array;
        struct { cudaMipmappedArray_t mipmap; } mipmap;
        struct { void *devPtr; struct cudaChannelFormatDesc desc; size_t sizeInBytes; } linear;
        struct { void *devPtr; struct cudaChannelFormatDesc desc; size_t width, height, pitchInBytes; } pitch2D;
        struct { int reserved[32]; } reserved;
    } res;
    unsigned flags;
};

struct cudaTextureDesc {
    int addressMode[3], filterMode, readMode, sRGB;
    float borderColor[4];
    int normalizedCoords;
    unsigned maxAnisotropy;
    int mipmapFilterMode;
    float mipmapLevelBias, minMipmapLevelClamp, maxMipmapLevelClamp;
    int disableTrilinearOptimization, seamlessCubemap;
};

/* ---- texture and surface objects ---------------------------------------------------------------- */

/* What the runtime keeps of each object: the descriptions it was made from (the Get calls). */
typedef struct object {
    uint64_t handle;
    int surface;
    struct cudaResourceDesc res;
    struct cudaTextureDesc tex;
    struct object *next;
} object;
static object *objects; /* guarded by object_lock */
#define NOT_LIVE(surface) ((surface) ? "not a live surface object" : "not a live texture object")
static pthread_mutex_t object_lock = PTHREAD_MUTEX_INITIALIZER;

/* A copy of the object's record (the Get calls), or 0 when h is no live object of that kind. */
static int object_of(uint64_t h, int surface, object *out) {
    int found = 0;
    pthread_mutex_lock(&object_lock);
    for (object *o = objects; o != NULL && !found; o = o->next)
        if (o->handle == h && o->surface == surface) *out = *o, found = 1;
    pthread_mutex_unlock(&object_lock);
    return found;
}

static void put32(unsigned char *b, size_t at, uint32_t v) { memcpy(b + at, &v, 4); }
static void put64(unsigned char *b, size_t at, uint64_t v) { memcpy(b + at, &v, 8); }

/* The resource's texels as the descriptor describes them (docs/semantics.md, "Textures and
   surfaces"), or the error having said why. */
static int describe(const char *fn, const struct cudaResourceDesc *r, int surface, unsigned char *b) {
    const struct cudaChannelFormatDesc *cd;
    uint64_t base, w, h = 0, d = 0, pitch, slice;
    int dims;
    const char *why = NULL;
    size_t texel;
    switch (r->resType) {
    case 0:
    case 1: {
        /* An array, or a mipmapped array's level 0: its levels follow it, packed (mipmaps.c), their number at 84. */
        cudaMipmappedArray_t mm = NULL;
        if (r->resType == 1) {
            if (surface) return bs_array_refuse(fn, cudaErrorInvalidValue, "a surface object's resource must be cudaResourceTypeArray");
            if ((mm = bs_mipmap_of(fn, r->res.mipmap.mipmap)) == NULL) return cudaErrorInvalidValue;
            put32(b, 84, mm->levels);
        }
        cudaArray_t a = mm != NULL ? mm->level[0] : bs_array_of(fn, r->res.array.array);
        if (a == NULL) return cudaErrorInvalidValue;
        if (surface && !(a->flags & 2u)) return bs_array_refuse(fn, cudaErrorInvalidValue, "the array was not made with cudaArraySurfaceLoadStore");
        /* tex2Dgather (tld4) needs an array made with cudaArrayTextureGather (a mipmapped one: its level 0, where tld4 reads). */
        b[59] = (unsigned char) ((a->flags & 8u) != 0);
        cd = &a->desc;
        base = (uint64_t) (uintptr_t) a->base;
        w = a->extent.width, h = a->extent.height, d = a->extent.depth;
        dims = a->dims, pitch = a->pitch, slice = a->slice, texel = a->texel;
        if (a->flags & 4u) {
            /* A cubemap: its faces (the extent's depth) go to 80, face f of cubemap k at base + (6k + f) * slice; byte 78
               marks it for tex.cube/.acube, 77 a cubemap layered one. A surface has no cubemap fetch: surfCubemap*
               are suld/sust .a2d with the face as the layer, so a surface object is a 2D layered one. */
            b[77] = (unsigned char) (surface || (a->flags & 1u));
            b[78] = (unsigned char) !surface;
            put32(b, 80, (uint32_t) d);
            d = 0;
        } else if (a->flags & 1u) {
            /* Layered: no depth; the layers (the extent's depth) go to bytes 77 and 80, layer l at base + l * slice. */
            b[77] = 1;
            put32(b, 80, (uint32_t) d);
            d = 0;
        }
        break;
    }
    case 2:
    case 3:
        if (surface) return bs_array_refuse(fn, cudaErrorInvalidValue, "a surface object's resource must be cudaResourceTypeArray");
        cd = r->resType == 2 ? &r->res.linear.desc : &r->res.pitch2D.desc;
        if ((texel = bs_texel_bytes(cd, &why)) == 0) return bs_array_refuse(fn, cudaErrorInvalidChannelDescriptor, why);
        base = (uint64_t) (uintptr_t) (r->resType == 2 ? r->res.linear.devPtr : r->res.pitch2D.devPtr);
        if (base == 0 || base % texel != 0) return bs_array_refuse(fn, cudaErrorInvalidValue, "devPtr is null or not aligned to a texel");
        if (r->resType == 2) {
            if (r->res.linear.sizeInBytes < texel || r->res.linear.sizeInBytes > ((size_t) 1 << 28) * texel)
                return bs_array_refuse(fn, cudaErrorInvalidValue, "sizeInBytes must hold 1 to cudaDevAttrMaxTexture1DLinearWidth (2^28) texels");
            w = r->res.linear.sizeInBytes / texel, dims = 1, pitch = w * texel;
        } else {
            w = r->res.pitch2D.width, h = r->res.pitch2D.height, pitch = r->res.pitch2D.pitchInBytes, dims = 2;
            if (w == 0 || h == 0 || w > 131072 || h > 65000) return bs_array_refuse(fn, cudaErrorInvalidValue, "width and height must be 1 to 131072 and 1 to 65000 (cudaDevAttrMaxTexture2DLinear*)");
            if (pitch % 32 != 0 || pitch < w * texel) return bs_array_refuse(fn, cudaErrorInvalidValue, "pitchInBytes must be a multiple of 32 (cudaDevAttrTexturePitchAlignment) and hold a row");
        }
        if (!bs_check_device((void *) (uintptr_t) base, (size_t) (pitch * (h ? h - 1 : 0) + w * texel)))
            return bs_array_refuse(fn, cudaErrorInvalidValue, "the texels are not all device memory");
        slice = pitch * (h ? h : 1);
        break;
    default:
        return bs_array_refuse(fn, cudaErrorInvalidValue, "no such cudaResourceType");
    }
    int bits[4] = {cd->x, cd->y, cd->z, cd->w};
    put32(b, 0, surface ? 0x46535342u : 0x58545342u);
    put32(b, 4, (uint32_t) dims);
    put64(b, 8, base);
    put32(b, 16, (uint32_t) w);
    put32(b, 20, (uint32_t) h);
    put32(b, 24, (uint32_t) d);
    put32(b, 28, (uint32_t) texel);
    put64(b, 32, pitch);
    put64(b, 40, slice);
    for (int i = 0; i < 4; i++) b[48 + i] = (unsigned char) bits[i];
    b[52] = (unsigned char) cd->f;
    /* Linear memory is fetched by integer index only (tex1Dfetch): the engine refuses f32 coordinates there. */
    b[76] = (unsigned char) (r->resType == 2);
    return cudaSuccess;
}

/* The descriptor into a device allocation of its own; the handle is its address. */
static int publish(const char *fn, const unsigned char *b, const struct cudaResourceDesc *r, const struct cudaTextureDesc *t,
                   int surface, uint64_t *handle) {
    void *p = NULL;
    int e = bs_malloc(fn, &p, 128);
    if (e) return e;
    if ((e = bs_copy(fn, p, b, 128, H2D))) {
        bs_free(fn, p); /* the descriptor's allocation, not kept */
        return e;
    }
    object *o = calloc(1, sizeof *o);
    if (o == NULL) bs_fatal("out of host memory");
    o->handle = (uint64_t) (uintptr_t) p;
    o->surface = surface;
    o->res = *r;
    if (t) o->tex = *t;
    pthread_mutex_lock(&object_lock);
    o->next = objects;
    objects = o;
    pthread_mutex_unlock(&object_lock);
    *handle = o->handle;
    return cudaSuccess;
}

int cudaCreateTextureObject(uint64_t *pTexObject, const struct cudaResourceDesc *r, const struct cudaTextureDesc *t, const void *view) {
    const char *fn = "cudaCreateTextureObject";
    BS_STICKY();
    int c = bs_capture_check_unsafe(fn);
    if (c) return c;
    if (pTexObject == NULL || r == NULL || t == NULL) return bs_array_refuse(fn, cudaErrorInvalidValue, "a null pointer");
    if (view != NULL) return bs_array_unmodelled(fn, "a cudaResourceViewDesc (resource views are not modelled by BarrierScope yet)");
    if (r->flags != 0) return bs_array_refuse(fn, cudaErrorInvalidValue, "pResDesc->flags must be 0");
    for (int i = 0; i < 3; i++)
        if (t->addressMode[i] < 0 || t->addressMode[i] > 3) return bs_array_refuse(fn, cudaErrorInvalidValue, "no such cudaTextureAddressMode");
    if (t->filterMode < 0 || t->filterMode > 1) return bs_array_refuse(fn, cudaErrorInvalidValue, "no such cudaTextureFilterMode");
    if (t->readMode < 0 || t->readMode > 1) return bs_array_refuse(fn, cudaErrorInvalidValue, "no such cudaTextureReadMode");
    if (t->sRGB) return bs_array_unmodelled(fn, "sRGB (sRGB conversion is not modelled by BarrierScope yet)");
    /* Anisotropic filtering: NVIDIA documents only that maxAnisotropy is "the maximum anisotropy ratio", clamped to
       [1, 16], not the footprint, the samples or their weights, so no fetch could be made as the GPU makes it.
       Refused for every resource (docs/runtime.md, "Anisotropic filtering"): never ignored silently. */
    if (t->maxAnisotropy > 1) {
        char m[200];
        snprintf(m, sizeof m, "pTexDesc->maxAnisotropy is %u: anisotropic filtering (maxAnisotropy above 1) has no documented"
                 " footprint, so BarrierScope refuses it; 0 or 1 fetch without it", t->maxAnisotropy);
        return bs_array_refuse(fn, cudaErrorNotSupported, m);
    }
    unsigned char b[128];
    memset(b, 0, sizeof b);
    int e = describe(fn, r, 0, b);
    if (e) return e;
    /* seamlessCubemap "can only be specified if the underlying resource is a CUDA array or a CUDA mipmapped array that
       was created with the flag cudaArrayCubemap" (cudaCreateTextureObject); byte 79 tells the engine (SeamlessCube). */
    if (t->seamlessCubemap && !b[78])
        return bs_array_refuse(fn, cudaErrorInvalidValue, "seamlessCubemap needs an array or mipmapped array made with cudaArrayCubemap");
    b[79] = (unsigned char) (t->seamlessCubemap != 0);
    int kind = b[52], bits = b[48];
    /* cudaReadModeNormalizedFloat promotes 8- and 16-bit integers only (32-bit ones and floats read as they are). */
    int norm_read = t->readMode == 1 && kind != 2 && bits <= 16;
    if (t->filterMode == 1 && kind != 2 && !norm_read)
        return bs_array_unmodelled(fn, "cudaFilterModeLinear of integer texels read as cudaReadModeElementType (only float results are filtered)");
    for (int i = 0; i < 3; i++) {
        /* Without normalized coordinates wrap and mirror are not supported and become clamp (cudaTextureDesc). */
        int m = t->addressMode[i];
        b[53 + i] = (unsigned char) (!t->normalizedCoords && (m == 0 || m == 2) ? 1 : m);
    }
    if (r->resType == 1) {
        /* The mipmap sampler state (docs/semantics.md section 16); the engine picks levels only with normalized coordinates. */
        if (t->mipmapFilterMode < 0 || t->mipmapFilterMode > 1) return bs_array_refuse(fn, cudaErrorInvalidValue, "no such cudaTextureFilterMode (mipmapFilterMode)");
        if (!t->normalizedCoords) return bs_array_unmodelled(fn, "a mipmapped array without normalizedCoords (BarrierScope fetches mipmaps with normalized coordinates only)");
        if (t->mipmapFilterMode == 1 && kind != 2 && !norm_read)
            return bs_array_unmodelled(fn, "linear mipmapFilterMode of integer texels read as cudaReadModeElementType (only float results are filtered)");
        b[88] = (unsigned char) t->mipmapFilterMode;
        memcpy(b + 92, &t->mipmapLevelBias, 4);
        memcpy(b + 96, &t->minMipmapLevelClamp, 4);
        memcpy(b + 100, &t->maxMipmapLevelClamp, 4);
    }
    b[56] = (unsigned char) t->filterMode;
    b[57] = (unsigned char) norm_read;
    b[58] = (unsigned char) (t->normalizedCoords != 0);
    memcpy(b + 60, t->borderColor, 16);
    return publish(fn, b, r, t, 0, pTexObject);
}

int cudaCreateSurfaceObject(uint64_t *pSurfObject, const struct cudaResourceDesc *r) {
    const char *fn = "cudaCreateSurfaceObject";
    BS_STICKY();
    int c = bs_capture_check_unsafe(fn);
    if (c) return c;
    if (pSurfObject == NULL || r == NULL) return bs_array_refuse(fn, cudaErrorInvalidValue, "a null pointer");
    unsigned char b[128];
    memset(b, 0, sizeof b);
    int e = describe(fn, r, 1, b);
    return e ? e : publish(fn, b, r, NULL, 1, pSurfObject);
}

static int destroy(const char *fn, uint64_t h, int surface) {
    BS_STICKY();
    int c = bs_capture_check_unsafe(fn);
    if (c) return c;
    pthread_mutex_lock(&object_lock);
    for (object **p = &objects; *p != NULL; p = &(*p)->next) {
        if ((*p)->handle == h && (*p)->surface == surface) {
            object *o = *p;
            *p = o->next;
            pthread_mutex_unlock(&object_lock);
            free(o);
            return bs_free(fn, (void *) (uintptr_t) h);
        }
    }
    pthread_mutex_unlock(&object_lock);
    return bs_array_refuse(fn, cudaErrorInvalidValue, NOT_LIVE(surface));
}

int cudaDestroyTextureObject(uint64_t h) { return destroy("cudaDestroyTextureObject", h, 0); }
int cudaDestroySurfaceObject(uint64_t h) { return destroy("cudaDestroySurfaceObject", h, 1); }

/* A Get call's object: its record into *o, or the error having said why (a null out, or h no live
   object of that kind). */
static int get_object(const char *fn, const void *out, uint64_t h, int surface, object *o) {
    if (out == NULL) return bs_array_refuse(fn, cudaErrorInvalidValue, "a null pointer");
    if (!object_of(h, surface, o)) return bs_array_refuse(fn, cudaErrorInvalidValue, NOT_LIVE(surface));
    return cudaSuccess;
}

static int get_res(const char *fn, struct cudaResourceDesc *out, uint64_t h, int surface) {
    BS_STICKY();
    object o;
    int e = get_object(fn, out, h, surface, &o);
    if (e) return e;
    *out = o.res;
    return cudaSuccess;
}

int cudaGetTextureObjectResourceDesc(struct cudaResourceDesc *out, uint64_t h) {
    return get_res("cudaGetTextureObjectResourceDesc", out, h, 0);
}
int cudaGetSurfaceObjectResourceDesc(struct cudaResourceDesc *out, uint64_t h) {
    return get_res("cudaGetSurfaceObjectResourceDesc", out, h, 1);
}
int cudaGetTextureObjectTextureDesc(struct cudaTextureDesc *out, uint64_t h) {
    BS_STICKY();
    object o;
    int e = get_object("cudaGetTextureObjectTextureDesc", out, h, 0, &o);
    if (e) return e;
    *out = o.tex;
    return cudaSuccess;
}
