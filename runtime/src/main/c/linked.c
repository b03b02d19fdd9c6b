/* Relocatable device code (nvcc -rdc=true): every object's PTX to the engine, which links it
   (docs/runtime.md, "Relocatable device code"). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cudart.h"
#include "function.h"
#include "protocol.h"

/*
 * A program built with -rdc=true registers one wrapper of version 2 (crt/link.stub): its data is
 * nvlink's linked cubin, no PTX; its fourth word is the null-terminated array of every object's
 * own fat binary (each with that object's PTX). The engine links their PTX (PtxLinker.java).
 */
bs_module *bs_linked_module(void **objects) {
    size_t n = 0;
    while (objects != NULL && objects[n] != NULL) n++;
    if (n == 0) return bs_module_new(NULL, "its relocatable (-rdc) registration names no object's fat binary");
    char **ptx = calloc(n, sizeof *ptx);
    if (ptx == NULL) bs_fatal("out of host memory");
    static char why[640];
    const char *bad = NULL;
    for (size_t i = 0; i < n && bad == NULL; i++) {
        const char *w = NULL;
        ptx[i] = bs_ptx_of_fatbin(objects[i], &w);
        if (ptx[i] == NULL) {
            snprintf(why, sizeof why,
                     "it was built with relocatable device code (-rdc=true) and object %zu of %zu %s; nvcc embeds "
                     "each object's PTX with -arch=sm_90a or -gencode arch=compute_90a,code=[compute_90a,sm_90a] "
                     "(code=sm_90a alone embeds only a cubin), a device library's objects (nvcc -lib) included: rebuild "
                     "the program, and any such library, with one of those",
                     i + 1, n, strstr(w, "no PTX") ? "holds no PTX" : w);
            bad = why;
        }
    }
    bs_buf b = {0};
    if (bad == NULL) {
        bs_put_u32(&b, (uint32_t) n);
        for (size_t i = 0; i < n; i++) bs_put_str(&b, ptx[i]);
    }
    bs_module *m = bs_module_sent(BS_MODULE_LINK, bad == NULL ? &b : NULL, bad,
                                  "its relocatable device code cannot be linked or its PTX was refused by the engine "
                                  "(`barrierscope exec` printed why)");
    for (size_t i = 0; i < n; i++) free(ptx[i]);
    free(ptx);
    return m;
}

