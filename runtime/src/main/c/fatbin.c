/*
 * What a fat binary holds: the PTX the engine runs, read from nvcc's wrapper, a fat binary's own
 * header or an image a library loads, and __cudaRegisterFatBinary, which hands it to the engine
 * (docs/runtime.md, "What nvcc generates"); register.c registers its kernels and variables.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cudart.h"
#include "function.h"
#include "protocol.h"

/* What __cudaRegisterFatBinary receives (fatbinary_section.h's __fatBinC_Wrapper_t). */
typedef struct {
    int magic;
    int version;
    const unsigned char *data;
    void *filename_or_fatbins;
} fatbin_wrapper;

#define FATBINC_MAGIC 0x466243B1
#define FATBIN_MAGIC 0xBA55ED50u
#define ENTRY_PTX 1
#define FLAG_ZSTD 0x8000u
#define FLAG_LZ4 0x2000u
#define FLAG_ARCH_SPECIFIC 0x100000u /* the 'a' of compute_90a */

static uint16_t u16at(const unsigned char *p) { uint16_t v; memcpy(&v, p, 2); return v; }
static uint32_t u32at(const unsigned char *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static uint64_t u64at(const unsigned char *p) { uint64_t v; memcpy(&v, p, 8); return v; }

/*
 * The PTX of the best entry of a fat binary: compute_90a (arch 90 with the arch-specific flag)
 * over plain compute_90 over any other PTX. Entry header layout: docs/runtime.md.
 */
char *bs_ptx_of_fatbin(const unsigned char *fb, const char **why) {
    if (u32at(fb) != FATBIN_MAGIC) {
        *why = "its fat binary has an unknown header";
        return NULL;
    }
    uint16_t hsize = u16at(fb + 6);
    uint64_t total = u64at(fb + 8);
    const unsigned char *e = fb + hsize, *end = fb + hsize + total, *best = NULL;
    int best_rank = -1;
    while (e + 64 <= end) {
        uint16_t kind = u16at(e);
        uint32_t ehs = u32at(e + 4);
        uint64_t padded = u64at(e + 8);
        uint32_t arch = u32at(e + 28);
        uint64_t flags = u64at(e + 40);
        if (kind == ENTRY_PTX) {
            int rank = arch == 90 ? ((flags & FLAG_ARCH_SPECIFIC) ? 3 : 2) : (arch < 90 ? 1 : 0);
            if (rank > best_rank) {
                best_rank = rank;
                best = e;
            }
        }
        if (ehs == 0) break;
        e += ehs + padded;
    }
    if (best == NULL) {
        *why = "its fat binary holds no PTX (build with -arch=sm_90a, which embeds compute_90a PTX)";
        return NULL;
    }
    uint32_t ehs = u32at(best + 4);
    uint64_t padded = u64at(best + 8);
    uint32_t csize = u32at(best + 16);
    uint64_t flags = u64at(best + 40);
    uint64_t usize = u64at(best + 56);
    const unsigned char *payload = best + ehs;
    if (flags & FLAG_ZSTD) return bs_zstd(payload, csize ? csize : padded, usize, why);
    if (flags & FLAG_LZ4) {
        *why = "its PTX is LZ4-compressed (an older nvcc); rebuild with nvcc --no-compress";
        return NULL;
    }
    char *out = malloc(padded + 1);
    if (out == NULL) bs_fatal("out of host memory");
    memcpy(out, payload, padded);
    out[padded] = 0;
    return out;
}

/* The PTX of an image as cudaLibraryLoadData and cuModuleLoadData take it: a fat binary, nvcc's
   wrapper of one, or PTX text; a cubin (ELF) has no PTX for the engine. NULL and why if none. */
char *bs_ptx_of_image(const void *image, const char **why) {
    const unsigned char *p = image;
    if (p == NULL) {
        *why = "a null image";
        return NULL;
    }
    if (u32at(p) == FATBIN_MAGIC) return bs_ptx_of_fatbin(p, why);
    const fatbin_wrapper *w = image;
    if (w->magic == FATBINC_MAGIC && w->version != 1)
        *why = "a wrapper of relocatable device code (-rdc) holds a linked cubin, no PTX: load an object's fat binary";
    if (w->magic == FATBINC_MAGIC) return w->version == 1 ? bs_ptx_of_fatbin(w->data, why) : NULL;
    if (memcmp(p, "\x7f" "ELF", 4) == 0) {
        *why = "a cubin (ELF) holds no PTX, which is what the engine runs: load PTX text or a fat binary with PTX "
               "(nvcc -fatbin -arch=sm_90a, or --ptx)";
        return NULL;
    }
    char *ptx = strdup((const char *) image);
    if (ptx == NULL) bs_fatal("out of host memory");
    return ptx;
}

void **__cudaRegisterFatBinary(void *fatCubin) {
    const fatbin_wrapper *w = fatCubin;
    const char *why = NULL;
    char *ptx = NULL;
    bs_module *m;
    if (w == NULL || w->magic != FATBINC_MAGIC) why = "it passed no fat binary nvcc would make";
    else if (w->version == 2) why = NULL;
    else if (w->version != 1) why = "its fat binary wrapper has an unknown version";
    else ptx = bs_ptx_of_fatbin(w->data, &why);
    if (w != NULL && w->magic == FATBINC_MAGIC && w->version == 2) m = bs_linked_module(w->filename_or_fatbins);
    else m = bs_module_new(ptx, why);
    if (m->id < 0) fprintf(stderr, "barrierscope: a CUDA module of this program cannot run: %s\n", m->why);
    return (void **) m;
}

void __cudaRegisterFatBinaryEnd(void **handle) { (void) handle; }
void __cudaUnregisterFatBinary(void **handle) { (void) handle; }
