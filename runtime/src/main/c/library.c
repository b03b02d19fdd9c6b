/*
 * Library-based loading (CUDA 12+; docs/runtime.md, "Kernel handles and loading"): a program
 * loads PTX or a fat binary at run time (cudaLibraryLoadData/FromFile, and the driver's
 * cuLibrary*, cuModule* found through cudaGetDriverEntryPoint or cuGetProcAddress), looks up its
 * kernels and variables by name, and launches a kernel handle with any launch call. Each library
 * is a module of the engine like nvcc's registered ones; its kernels are the same records.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "function.h"
#include "protocol.h"

#define LIBRARY_MAGIC 0x4C494252u

typedef struct {
    uint32_t magic;
    bs_module *module;
    struct bs_function **kernels; /* one per .entry, in the order the PTX declares them */
    unsigned n;
} bs_library;

static int bad_library(const bs_library *l) { return !bs_handle_live(l) || l->magic != LIBRARY_MAGIC; }

/* The names of the PTX's .entry directives, in order (a kernel is made for each). */
static void add_entries(bs_library *l, const char *ptx) {
    for (const char *p = strstr(ptx, ".entry"); p != NULL; p = strstr(p + 6, ".entry")) {
        const char *q = p + 6;
        if (p > ptx && p[-1] != ' ' && p[-1] != '\t' && p[-1] != '\n') continue;
        if (*q != ' ' && *q != '\t') continue;
        while (*q == ' ' || *q == '\t') q++;
        size_t len = strcspn(q, " \t\r\n(");
        if (len == 0) continue;
        char *name = strndup(q, len);
        l->kernels = realloc(l->kernels, (l->n + 1) * sizeof *l->kernels);
        if (name == NULL || l->kernels == NULL) bs_fatal("out of host memory");
        l->kernels[l->n++] = bs_function_new(l->module, name, NULL);
        free(name);
    }
}

/* The JIT and library options change nothing here (no JIT: the engine runs the PTX). */
int cudaLibraryLoadData(bs_library **out, const void *code, void *jo, void **jv, unsigned njo, void *lo, void **lv, unsigned nlo) {
    (void) jo; (void) jv; (void) njo; (void) lo; (void) lv; (void) nlo;
    BS_STICKY();
    if (out == NULL || code == NULL) return bs_set(cudaErrorInvalidValue);
    const char *why = NULL;
    char *ptx = bs_ptx_of_image(code, &why);
    if (ptx == NULL) {
        fprintf(stderr, "barrierscope: cudaLibraryLoadData: %s (returns cudaErrorInvalidKernelImage)\n", why);
        return bs_set(cudaErrorInvalidKernelImage);
    }
    bs_library *l = calloc(1, sizeof *l);
    if (l == NULL) bs_fatal("out of host memory");
    char *names = strdup(ptx);
    if (names == NULL) bs_fatal("out of host memory");
    l->magic = LIBRARY_MAGIC;
    l->module = bs_module_new(ptx, NULL);
    if (l->module->id < 0) {
        free(names);
        free(l->module->why);
        free(l->module);
        free(l);
        fprintf(stderr, "barrierscope: cudaLibraryLoadData: the engine refused the PTX (returns cudaErrorInvalidPtx)\n");
        return bs_set(cudaErrorInvalidPtx);
    }
    add_entries(l, names);
    free(names);
    bs_handle_add(l);
    *out = l;
    return cudaSuccess;
}

int cudaLibraryLoadFromFile(bs_library **out, const char *file, void *jo, void **jv, unsigned njo, void *lo, void **lv, unsigned nlo) {
    BS_STICKY();
    if (out == NULL || file == NULL) return bs_set(cudaErrorInvalidValue);
    FILE *f = fopen(file, "rb");
    if (f == NULL) {
        fprintf(stderr, "barrierscope: cudaLibraryLoadFromFile: cannot read %s (returns cudaErrorInvalidValue)\n", file);
        return bs_set(cudaErrorInvalidValue);
    }
    bs_buf b = {0};
    char chunk[65536];
    size_t got;
    while ((got = fread(chunk, 1, sizeof chunk, f)) > 0) bs_put(&b, chunk, got);
    fclose(f);
    bs_put(&b, "", 1); /* PTX text ends with its NUL */
    int e = cudaLibraryLoadData(out, b.p, jo, jv, njo, lo, lv, nlo);
    free(b.p);
    return e;
}

/* Its kernels' handles stay allocated (a stale handle is never freed memory) but launch no more. */
int cudaLibraryUnload(bs_library *l) {
    if (bad_library(l)) return bs_set(cudaErrorInvalidResourceHandle);
    l->magic = 0;
    bs_handle_remove(l);
    l->module->id = -1;
    l->module->why = strdup("its library was unloaded (cudaLibraryUnload)");
    free(l->kernels);
    free(l);
    return cudaSuccess;
}

int cudaLibraryGetKernel(struct bs_function **out, bs_library *l, const char *name) {
    if (out == NULL || name == NULL) return bs_set(cudaErrorInvalidValue);
    if (bad_library(l)) return bs_set(cudaErrorInvalidResourceHandle);
    for (unsigned i = 0; i < l->n; i++) {
        if (strcmp(l->kernels[i]->name, name) == 0) {
            *out = l->kernels[i];
            return cudaSuccess;
        }
    }
    fprintf(stderr, "barrierscope: cudaLibraryGetKernel: no kernel %s in the library (returns cudaErrorSymbolNotFound)\n", name);
    return bs_set(cudaErrorSymbolNotFound);
}

int cudaLibraryGetKernelCount(unsigned *count, bs_library *l) {
    if (count == NULL) return bs_set(cudaErrorInvalidValue);
    if (bad_library(l)) return bs_set(cudaErrorInvalidResourceHandle);
    *count = l->n;
    return cudaSuccess;
}

int cudaLibraryEnumerateKernels(struct bs_function **kernels, unsigned num, bs_library *l) {
    if (kernels == NULL) return bs_set(cudaErrorInvalidValue);
    if (bad_library(l)) return bs_set(cudaErrorInvalidResourceHandle);
    for (unsigned i = 0; i < num && i < l->n; i++) kernels[i] = l->kernels[i];
    return cudaSuccess;
}

/* A __device__ or __constant__ variable of the library: its device address and size. */
int cudaLibraryGetGlobal(void **dptr, size_t *bytes, bs_library *l, const char *name) {
    BS_STICKY();
    if (name == NULL || (dptr == NULL && bytes == NULL)) return bs_set(cudaErrorInvalidValue); /* "not both" NULL */
    if (bad_library(l)) return bs_set(cudaErrorInvalidResourceHandle);
    bs_buf b = {0}, r = {0};
    bs_put_u32(&b, (uint32_t) l->module->id);
    bs_put_str(&b, name);
    uint32_t st = bs_call(BS_SYMBOL, &b, &r);
    if (st == 0) {
        if (dptr) *dptr = (void *) (uintptr_t) bs_get_u64(&r, 0);
        if (bytes) *bytes = (size_t) bs_get_u64(&r, 8);
    }
    free(b.p);
    free(r.p);
    if (st == 0) return cudaSuccess;
    fprintf(stderr, "barrierscope: cudaLibraryGetGlobal: no variable %s in the library (returns cudaErrorSymbolNotFound)\n", name);
    return bs_set(cudaErrorSymbolNotFound);
}

int cudaFuncSetAttribute(const void *func, int attr, int value);

int cudaKernelSetAttributeForDevice(struct bs_function *k, int attr, int value, int device) {
    if (device != 0) return bs_set(cudaErrorInvalidDevice);
    return cudaFuncSetAttribute(k, attr, value);
}

/* ---- the driver's forms (cudaGetDriverEntryPoint, cuGetProcAddress): the same objects, the
   runtime's last error left as it was (BS_DRIVER) ------------------------------------------------ */

int bs_cu_library_load_data(bs_library **out, const void *code, void *jo, void **jv, unsigned njo, void *lo, void **lv, unsigned nlo) {
    BS_DRIVER(cudaLibraryLoadData(out, code, jo, jv, njo, lo, lv, nlo));
}
int bs_cu_library_get_kernel(struct bs_function **out, bs_library *l, const char *name) { BS_DRIVER(cudaLibraryGetKernel(out, l, name)); }
int bs_cu_library_unload(bs_library *l) { BS_DRIVER(cudaLibraryUnload(l)); }
int bs_cu_library_get_global(void **dptr, size_t *bytes, bs_library *l, const char *name) { BS_DRIVER(cudaLibraryGetGlobal(dptr, bytes, l, name)); }

/* A CUfunction and a CUkernel are one record here. */
int bs_cu_kernel_get_function(struct bs_function **out, struct bs_function *k) {
    if (out == NULL || k == NULL) return cudaErrorInvalidValue;
    if (bs_function_of(k) != k) return cudaErrorInvalidResourceHandle; /* CUDA_ERROR_INVALID_HANDLE: no kernel record */
    *out = k;
    return cudaSuccess;
}

/* cuModuleLoadData / cuModuleGetFunction / cuModuleGetGlobal / cuModuleUnload: a module is a library. */
int bs_cu_module_load_data(bs_library **out, const void *image) { BS_DRIVER(cudaLibraryLoadData(out, image, NULL, NULL, 0, NULL, NULL, 0)); }
int bs_cu_module_get_global(void **dptr, size_t *bytes, bs_library *l, const char *name) { BS_DRIVER(cudaLibraryGetGlobal(dptr, bytes, l, name)); }

/* CUfunction_attribute numbers 8 to 15 are cudaFuncAttribute's. */
int bs_cu_func_set_attribute(struct bs_function *f, int attr, int value) { BS_DRIVER(cudaFuncSetAttribute(f, attr, value)); }
int bs_cu_kernel_set_attribute(int attr, int value, struct bs_function *k, int device) { BS_DRIVER(cudaKernelSetAttributeForDevice(k, attr, value, device)); }
