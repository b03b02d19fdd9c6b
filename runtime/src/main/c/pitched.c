/*
 * Pitched (2D) and 3D linear memory: cudaMallocPitch, cudaMalloc3D, cudaMemcpy2D/3D, cudaMemset2D/3D.
 * A copy is rows of `width` bytes, `pitch` bytes apart, `height` rows a slice; each is checked
 * whole before the first byte moves (a bad argument writes nothing), then moved row by row
 * through cudaMemcpy's own path (or in one piece when the rows are contiguous on both sides).
 * A cudaArray side of cudaMemcpy3D is the array's texels as pitched memory (arrays.c).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cudart.h"

int cudaMalloc(void **devPtr, size_t size);
int bs_array_params(const char *fn, struct cudaMemcpy3DParms *p); /* arrays.c */

enum { H2H = 0, H2D = 1, D2H = 2, D2D = 3, DEFAULT = 4 };

/* cudaDevAttrMaxPitch of an H100 (and cudaDevAttrTexturePitchAlignment's 512 for the padding). */
#define MAX_PITCH ((size_t) 2147483647)
#define PITCH_ALIGN ((size_t) 512)

/* cudaPitchedPtr, cudaExtent, cudaPos and cudaMemcpy3DParms: cudart.h. */

/* One side of a copy: where its first row starts, the pitch, and the bytes from slice to slice. */
typedef struct { char *p; size_t pitch, slice; } side;

static int refuse(const char *fn, int e, const char *why) {
    fprintf(stderr, "barrierscope: %s: %s (returns %s; nothing was written)\n", fn, why, cudaGetErrorName(e));
    return bs_set(e);
}

/* Bytes from the first row's first byte to the last row's last one; SIZE_MAX when that overflows. */
static size_t span(side s, size_t width, size_t height, size_t depth) {
    size_t a, b, n;
    if (__builtin_mul_overflow(depth - 1, s.slice, &a) || __builtin_mul_overflow(height - 1, s.pitch, &b) ||
        __builtin_add_overflow(a, b, &n) || __builtin_add_overflow(n, width, &n)) return SIZE_MAX;
    return n;
}

static int device_or_refuse(const char *fn, const char *which, side s, size_t n) {
    if (n != SIZE_MAX && (uintptr_t) s.p + n >= (uintptr_t) s.p && bs_check_device(s.p, n)) return 0;
    fprintf(stderr, "barrierscope: %s: the %s rows (%p, %zu bytes from the first to the last) are not all device memory "
                    "(returns cudaErrorInvalidValue; nothing was written)\n", fn, which, (void *) s.p, n);
    return bs_set(cudaErrorInvalidValue);
}

static int copy_rows(const char *fn, side d, side s, size_t width, size_t height, size_t depth, int kind) {
    BS_STICKY();
    if (kind < H2H || kind > DEFAULT) return refuse(fn, cudaErrorInvalidMemcpyDirection, "no such cudaMemcpyKind");
    if (d.pitch > MAX_PITCH || s.pitch > MAX_PITCH) return refuse(fn, cudaErrorInvalidPitchValue, "a pitch above the device's maximum (2^31 - 1)");
    if (width > d.pitch || width > s.pitch) return refuse(fn, cudaErrorInvalidPitchValue, "the width is larger than a pitch");
    if (width == 0 || height == 0 || depth == 0) return cudaSuccess;
    if (d.p == NULL || s.p == NULL) return refuse(fn, cudaErrorInvalidValue, "a null pointer");
    int dd, sd;
    if (kind == DEFAULT) {
        dd = bs_check_device(d.p, 1);
        sd = bs_check_device(s.p, 1);
        kind = dd ? (sd ? D2D : H2D) : (sd ? D2H : H2H);
    }
    dd = kind == H2D || kind == D2D;
    sd = kind == D2H || kind == D2D;
    int e;
    if (dd && (e = device_or_refuse(fn, "destination", d, span(d, width, height, depth)))) return e;
    if (sd && (e = device_or_refuse(fn, "source", s, span(s, width, height, depth)))) return e;
    if (span(d, width, height, depth) == SIZE_MAX || span(s, width, height, depth) == SIZE_MAX)
        return refuse(fn, cudaErrorInvalidValue, "the rows reach past the end of the address space");
    if (d.pitch == width && s.pitch == width && (depth == 1 || (d.slice == width * height && s.slice == width * height)))
        return bs_copy(fn, d.p, s.p, width * height * depth, kind);
    for (size_t z = 0; z < depth; z++)
        for (size_t y = 0; y < height; y++)
            if ((e = bs_copy(fn, d.p + z * d.slice + y * d.pitch, s.p + z * s.slice + y * s.pitch, width, kind))) return e;
    return cudaSuccess;
}

static int set_rows(const char *fn, side d, int value, size_t width, size_t height, size_t depth) {
    BS_STICKY();
    if (d.pitch > MAX_PITCH) return refuse(fn, cudaErrorInvalidPitchValue, "a pitch above the device's maximum (2^31 - 1)");
    if (width > d.pitch) return refuse(fn, cudaErrorInvalidPitchValue, "the width is larger than the pitch");
    if (width == 0 || height == 0 || depth == 0) return cudaSuccess;
    int e = device_or_refuse(fn, "destination", d, span(d, width, height, depth));
    if (e) return e;
    for (size_t z = 0; z < depth; z++)
        for (size_t y = 0; y < height; y++)
            if ((e = bs_memset(fn, d.p + z * d.slice + y * d.pitch, value, width))) return e;
    return cudaSuccess;
}

/* ---- 2D ---------------------------------------------------------------------------------------- */

/*
 * The pitch (the width rounded up to PITCH_ALIGN) and the bytes of rows x slices of it, or 0 when
 * they pass 2^64: a width of SIZE_MAX rounded up to 0 and allocated nothing, returning success.
 */
static int pitched_bytes(const char *fn, size_t width, size_t height, size_t depth, size_t *pitch, size_t *bytes) {
    size_t p = width > SIZE_MAX - (PITCH_ALIGN - 1) ? 0 : (width + PITCH_ALIGN - 1) / PITCH_ALIGN * PITCH_ALIGN;
    size_t rows;
    if ((width != 0 && p == 0) || __builtin_mul_overflow(height ? height : 1, depth ? depth : 1, &rows)
        || __builtin_mul_overflow(p ? p : PITCH_ALIGN, rows, bytes)) {
        fprintf(stderr, "barrierscope: %s: width %zu, height %zu, depth %zu: the pitched allocation passes 2^64 bytes "
                        "(returns cudaErrorMemoryAllocation)\n", fn, width, height, depth);
        return 0;
    }
    *pitch = p ? p : PITCH_ALIGN;
    return 1;
}

/* Rows padded to 512 bytes, as a GPU's texture pitch alignment would. */
int cudaMallocPitch(void **devPtr, size_t *pitch, size_t width, size_t height) {
    BS_STICKY();
    if (devPtr == NULL || pitch == NULL) return bs_set(cudaErrorInvalidValue);
    size_t p, bytes;
    if (!pitched_bytes("cudaMallocPitch", width, height, 1, &p, &bytes)) return bs_set(cudaErrorMemoryAllocation);
    int e = cudaMalloc(devPtr, bytes);
    if (e == 0) *pitch = p;
    return e;
}

int cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height, int kind) {
    BS_STICKY();
    int c = bs_capture_check_sync("cudaMemcpy2D");
    if (c) return c;
    side d = {dst, dpitch, 0}, s = {(char *) src, spitch, 0};
    return copy_rows("cudaMemcpy2D", d, s, width, height, 1, kind);
}

/* Stream work (streams.c): as a 3D copy of one slice, which is what a graph's memcpy node holds. */
int cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height, int kind,
                      cudaStream_t stream) {
    return bs_memcpy2d("cudaMemcpy2DAsync", 1, stream, dst, dpitch, src, spitch, width, height, kind);
}

int bs_memcpy2d(const char *fn, int async, cudaStream_t stream, void *dst, size_t dpitch, const void *src, size_t spitch,
                size_t width, size_t height, int kind) {
    bs_op op = {.type = BS_OP_MEMCPY, .fn = fn};
    struct cudaMemcpy3DParms *p = &op.u.copy.p3;
    p->srcPtr = (struct cudaPitchedPtr){(void *) src, spitch, spitch, height};
    p->dstPtr = (struct cudaPitchedPtr){dst, dpitch, dpitch, height};
    p->extent = (struct cudaExtent){width, height, 1};
    p->kind = kind;
    if (async) return bs_issue(stream, &op);
    int c = bs_capture_check_sync(fn);
    return c ? c : bs_memcpy3d(fn, p);
}

int cudaMemset2D(void *devPtr, size_t pitch, int value, size_t width, size_t height) {
    BS_STICKY();
    int c = bs_capture_check_sync("cudaMemset2D");
    if (c) return c;
    side d = {devPtr, pitch, 0};
    return set_rows("cudaMemset2D", d, value, width, height, 1);
}

int cudaMemset2DAsync(void *devPtr, size_t pitch, int value, size_t width, size_t height, cudaStream_t stream) {
    bs_op op = {.type = BS_OP_MEMSET, .fn = "cudaMemset2DAsync"};
    op.u.set.dst = devPtr;
    op.u.set.pitch = pitch;
    op.u.set.value = (unsigned) value & 0xFF;
    op.u.set.element_size = 1;
    op.u.set.width = width;
    op.u.set.height = height;
    op.u.set.depth = 1;
    return bs_issue(stream, &op);
}

/* ---- 3D ---------------------------------------------------------------------------------------- */

int cudaMalloc3D(struct cudaPitchedPtr *pitchedDevPtr, struct cudaExtent extent) {
    BS_STICKY();
    if (pitchedDevPtr == NULL) return bs_set(cudaErrorInvalidValue);
    size_t p, bytes;
    if (!pitched_bytes("cudaMalloc3D", extent.width, extent.height, extent.depth, &p, &bytes)) return bs_set(cudaErrorMemoryAllocation);
    void *ptr;
    int e = cudaMalloc(&ptr, bytes);
    if (e) return e;
    pitchedDevPtr->ptr = ptr;
    pitchedDevPtr->pitch = p;
    pitchedDevPtr->xsize = extent.width;
    pitchedDevPtr->ysize = extent.height;
    return cudaSuccess;
}

/* The side a cudaPitchedPtr and a position give; ysize (rows per slice) matters only across slices. */
static int side_of(const char *fn, const char *which, struct cudaPitchedPtr pp, struct cudaPos pos, struct cudaExtent ex, side *out) {
    char why[160];
    if (pos.x + ex.width > pp.pitch) {
        snprintf(why, sizeof why, "the %s's x position plus the width is larger than its pitch", which);
        return refuse(fn, cudaErrorInvalidPitchValue, why);
    }
    if ((ex.depth > 1 || pos.z > 0) && pos.y + ex.height > pp.ysize) {
        snprintf(why, sizeof why, "the %s's y position plus the height is larger than its ysize (rows per slice)", which);
        return refuse(fn, cudaErrorInvalidValue, why);
    }
    size_t slice = pp.pitch * pp.ysize;
    out->p = (char *) pp.ptr + pos.z * slice + pos.y * pp.pitch + pos.x;
    out->pitch = pp.pitch;
    out->slice = slice;
    return 0;
}

int bs_memcpy3d(const char *fn, const struct cudaMemcpy3DParms *p) {
    BS_STICKY();
    if (p == NULL) return refuse(fn, cudaErrorInvalidValue, "a null cudaMemcpy3DParms");
    struct cudaMemcpy3DParms q;
    if (p->srcArray != NULL || p->dstArray != NULL) {
        /* An array side becomes its texels as pitched memory (arrays.c), in bytes. */
        q = *p;
        int e = bs_array_params(fn, &q);
        if (e) return e;
        p = &q;
    }
    if (p->srcPtr.ptr == NULL || p->dstPtr.ptr == NULL) return refuse(fn, cudaErrorInvalidValue, "srcPtr.ptr or dstPtr.ptr is null");
    side d, s;
    int e;
    if (p->extent.width == 0 || p->extent.height == 0 || p->extent.depth == 0) return cudaSuccess;
    if ((e = side_of(fn, "destination", p->dstPtr, p->dstPos, p->extent, &d))) return e;
    if ((e = side_of(fn, "source", p->srcPtr, p->srcPos, p->extent, &s))) return e;
    return copy_rows(fn, d, s, p->extent.width, p->extent.height, p->extent.depth, p->kind);
}

int cudaMemcpy3D(const struct cudaMemcpy3DParms *p) {
    BS_STICKY();
    int c = bs_capture_check_sync("cudaMemcpy3D");
    return c ? c : bs_memcpy3d("cudaMemcpy3D", p);
}
int cudaMemcpy3DAsync(const struct cudaMemcpy3DParms *p, cudaStream_t stream) {
    if (p == NULL) return refuse("cudaMemcpy3DAsync", cudaErrorInvalidValue, "a null cudaMemcpy3DParms");
    bs_op op = {.type = BS_OP_MEMCPY, .fn = "cudaMemcpy3DAsync"};
    op.u.copy.p3 = *p;
    return bs_issue(stream, &op);
}

static int memset3d(const char *fn, struct cudaPitchedPtr pp, int value, struct cudaExtent ex) {
    BS_STICKY();
    if (ex.width == 0 || ex.height == 0 || ex.depth == 0) return cudaSuccess;
    if (pp.ptr == NULL) return refuse(fn, cudaErrorInvalidValue, "a null pointer");
    if (ex.depth > 1 && ex.height > pp.ysize) return refuse(fn, cudaErrorInvalidValue, "the height is larger than the ysize (rows per slice)");
    side d = {pp.ptr, pp.pitch, pp.pitch * pp.ysize};
    return set_rows(fn, d, value, ex.width, ex.height, ex.depth);
}

int cudaMemset3D(struct cudaPitchedPtr pp, int value, struct cudaExtent ex) {
    BS_STICKY();
    int c = bs_capture_check_sync("cudaMemset3D");
    return c ? c : memset3d("cudaMemset3D", pp, value, ex);
}
int cudaMemset3DAsync(struct cudaPitchedPtr pp, int value, struct cudaExtent ex, cudaStream_t stream) {
    if (ex.depth > 1 && ex.height > pp.ysize && ex.width && ex.height) {
        return refuse("cudaMemset3DAsync", cudaErrorInvalidValue, "the height is larger than the ysize (rows per slice)");
    }
    bs_op op = {.type = BS_OP_MEMSET, .fn = "cudaMemset3DAsync"};
    op.u.set.dst = pp.ptr;
    op.u.set.pitch = pp.pitch;
    op.u.set.value = (unsigned) value & 0xFF;
    op.u.set.element_size = 1;
    op.u.set.width = ex.width;
    op.u.set.height = ex.height;
    op.u.set.depth = ex.depth;
    op.u.set.slice = pp.pitch * pp.ysize;
    return bs_issue(stream, &op);
}

/* A memset op of 1-byte elements (streams, graph memset nodes): rows, slices. */
int bs_memset_rows(const char *fn, void *dst, size_t pitch, size_t slice, int value, size_t width, size_t height, size_t depth) {
    BS_STICKY();
    if (width == 0 || height == 0 || depth == 0) return cudaSuccess;
    if (dst == NULL) return refuse(fn, cudaErrorInvalidValue, "a null pointer");
    side d = {dst, height > 1 || depth > 1 ? pitch : width, slice};
    return set_rows(fn, d, value, width, height, depth);
}
