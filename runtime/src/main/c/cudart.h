/* Declarations shared by the files of BarrierScope's libcudart.so.13 (see wire.c). */
#ifndef BARRIERSCOPE_CUDART_H
#define BARRIERSCOPE_CUDART_H

#include <stddef.h>
#include <stdint.h>

/* The few CUDA types the API needs, laid out as in CUDA 13's driver_types.h / vector_types.h
   (declared here so that building needs no CUDA toolkit). */
typedef struct { unsigned x, y, z; } dim3;
typedef void *cudaStream_t;
typedef void *cudaEvent_t;
typedef struct bs_function *cudaKernel_t;

enum {
    cudaSuccess = 0,
    cudaErrorInvalidValue = 1,
    cudaErrorMemoryAllocation = 2,
    cudaErrorInitializationError = 3,
    cudaErrorInvalidConfiguration = 9,
    cudaErrorInvalidPitchValue = 12,
    cudaErrorInvalidSymbol = 13,
    cudaErrorInvalidDevicePointer = 17,
    cudaErrorInvalidMemcpyDirection = 21,
    cudaErrorInvalidDeviceFunction = 98,
    cudaErrorNoDevice = 100,
    cudaErrorInvalidDevice = 101,
    cudaErrorInvalidKernelImage = 200,
    cudaErrorNoKernelImageForDevice = 209,
    cudaErrorInvalidPtx = 218,
    cudaErrorInvalidResourceHandle = 400,
    cudaErrorSymbolNotFound = 500,
    cudaErrorNotReady = 600,
    cudaErrorIllegalAddress = 700,
    cudaErrorLaunchTimeout = 702,
    cudaErrorLaunchFailure = 719,
    cudaErrorInvalidClusterSize = 912,
    cudaErrorNotSupported = 801,
    cudaErrorUnknown = 999
};

/* A growable byte buffer for messages. */
typedef struct { char *p; size_t len, cap; } bs_buf;

void bs_put(bs_buf *b, const void *p, size_t n);
void bs_put_u32(bs_buf *b, uint32_t v);
void bs_put_u64(bs_buf *b, uint64_t v);
void bs_put_str(bs_buf *b, const char *s);
uint32_t bs_get_u32(const bs_buf *b, size_t at);
uint64_t bs_get_u64(const bs_buf *b, size_t at);
uint32_t bs_call(uint32_t op, const bs_buf *req, bs_buf *reply);
uint32_t bs_call_locked(uint32_t op, const bs_buf *req, bs_buf *reply);

void bs_fatal(const char *what) __attribute__((noreturn));
int bs_set(int e);
/* The sticky error (0: none); each call that does device work starts with BS_STICKY(). */
int bs_sticky(void);
void bs_set_sticky(int e);
#define BS_STICKY() do { int sticky_ = bs_sticky(); if (sticky_ != 0) return sticky_; } while (0)
int bs_unimplemented(const char *name);
char *bs_zstd(const unsigned char *src, size_t n, size_t out_size, const char **why);

/* memory.c: whether [p, p+n) lies in one device allocation. */
int bs_is_device(const void *p, size_t n);
/* memory.c: cudaMemcpy and cudaMemset under the name fn (kind: cudaMemcpyKind). */
int bs_copy(const char *fn, void *dst, const void *src, size_t count, int kind);
int bs_memset(const char *fn, void *devPtr, int value, size_t count);
/* memory.c: whether [p, p+n) is device memory the engine knows (an allocation or a variable),
   asked of the engine when it is not an allocation; 0 also when it is not. */
int bs_check_device(const void *p, size_t n);
/* managed.c: whether [p, p+n) lies in one managed allocation; cudaFree of one (1 if p is one);
   every managed allocation to the engine before a launch, and back after it. */
int bs_managed(const void *p, size_t n);
int bs_free_managed(void *p);
void bs_managed_push(void);
void bs_managed_pull(void);
int bs_managed_var(uint64_t a, uint64_t size);
uint64_t bs_managed_bytes(void);
/* register.c: the device address and size of a registered variable (by its host shadow). */
int bs_symbol(const void *host_var, uint64_t *addr, uint64_t *size);
const char *cudaGetErrorString(int e);
const char *cudaGetErrorName(int e);

/* misc.c: virtual cycles of every launch so far (events read it). */
void bs_add_cycles(uint64_t c);

#endif
