/*
 * The per-thread default stream forms (a program built with nvcc --default-stream per-thread
 * calls these): the stream 0 of a _ptsz call is the calling thread's default stream
 * (cudaStreamPerThread, handle 2, which can capture), not the legacy one; a _ptds call is the
 * synchronous call itself. Everything else is the plain function's.
 */
#define _GNU_SOURCE
#include <stdlib.h>

#include "cudart.h"

#define PT(s) ((s) == NULL ? (cudaStream_t) (uintptr_t) 2 : (s))

/* The plain functions (their files declare them with their own struct types). */
int __cudaLaunchKernel(cudaKernel_t, dim3, dim3, void **, size_t, void *);
int cudaLaunchKernel(const void *, dim3, dim3, void **, size_t, void *);
int cudaLaunchCooperativeKernel(const void *, dim3, dim3, void **, size_t, void *);
int cudaLaunchKernelExC(const void *, const void *, void **);
int cudaLaunchHostFunc(cudaStream_t, void (*)(void *), void *);
int cudaEventRecord(cudaEvent_t, cudaStream_t);
int cudaEventRecordWithFlags(cudaEvent_t, cudaStream_t, unsigned);
int cudaStreamWaitEvent(cudaStream_t, cudaEvent_t, unsigned);
int cudaStreamSynchronize(cudaStream_t);
int cudaStreamQuery(cudaStream_t);
int cudaStreamGetFlags(cudaStream_t, unsigned *);
int cudaStreamBeginCapture(cudaStream_t, int);
int cudaStreamBeginCaptureToGraph(cudaStream_t, cudaGraph_t, const cudaGraphNode_t *, const void *, size_t, int);
int cudaStreamEndCapture(cudaStream_t, cudaGraph_t *);
int cudaStreamIsCapturing(cudaStream_t, int *);
int cudaStreamGetCaptureInfo(cudaStream_t, int *, unsigned long long *, cudaGraph_t *, const cudaGraphNode_t **, const void **, size_t *);
int cudaStreamUpdateCaptureDependencies(cudaStream_t, cudaGraphNode_t *, const void *, size_t, unsigned);
int cudaGraphLaunch(void *, cudaStream_t);
int cudaGraphUpload(void *, cudaStream_t);
int cudaMallocAsync(void **, size_t, cudaStream_t);
int cudaMallocFromPoolAsync(void **, size_t, void *, cudaStream_t);
int cudaFreeAsync(void *, cudaStream_t);
int cudaMemcpy(void *, const void *, size_t, int);
int cudaMemcpyAsync(void *, const void *, size_t, int, cudaStream_t);
int cudaMemset(void *, int, size_t);
int cudaMemsetAsync(void *, int, size_t, cudaStream_t);
int cudaMemcpyToSymbol(const void *, const void *, size_t, size_t, int);
int cudaMemcpyFromSymbol(void *, const void *, size_t, size_t, int);
int cudaMemcpyToSymbolAsync(const void *, const void *, size_t, size_t, int, cudaStream_t);
int cudaMemcpyFromSymbolAsync(void *, const void *, size_t, size_t, int, cudaStream_t);
int cudaMemcpy2D(void *, size_t, const void *, size_t, size_t, size_t, int);
int cudaMemcpy2DAsync(void *, size_t, const void *, size_t, size_t, size_t, int, cudaStream_t);
int cudaMemset2D(void *, size_t, int, size_t, size_t);
int cudaMemset2DAsync(void *, size_t, int, size_t, size_t, cudaStream_t);
int cudaMemcpy3DAsync(const struct cudaMemcpy3DParms *, cudaStream_t);
int cudaMemset3D(struct cudaPitchedPtr, int, struct cudaExtent);
int cudaMemset3DAsync(struct cudaPitchedPtr, int, struct cudaExtent, cudaStream_t);

int __cudaLaunchKernel_ptsz(cudaKernel_t k, dim3 g, dim3 b, void **a, size_t sh, void *s) { return __cudaLaunchKernel(k, g, b, a, sh, PT(s)); }
int cudaLaunchKernel_ptsz(const void *f, dim3 g, dim3 b, void **a, size_t sh, void *s) { return cudaLaunchKernel(f, g, b, a, sh, PT(s)); }
int cudaLaunchCooperativeKernel_ptsz(const void *f, dim3 g, dim3 b, void **a, size_t sh, void *s) {
    return cudaLaunchCooperativeKernel(f, g, b, a, sh, PT(s));
}

/* cudaLaunchConfig_t: grid, block, dynamicSmemBytes, stream, attrs, numAttrs. */
typedef struct { dim3 grid, block; size_t shared; void *stream; void *attrs; unsigned nattrs; } launch_config;
int cudaLaunchKernelExC_ptsz(const launch_config *c, const void *f, void **a) {
    if (c == NULL) return cudaLaunchKernelExC(c, f, a);
    launch_config own = *c;
    own.stream = PT(c->stream);
    return cudaLaunchKernelExC(&own, f, a);
}

int cudaLaunchHostFunc_ptsz(cudaStream_t s, void (*fn)(void *), void *d) { return cudaLaunchHostFunc(PT(s), fn, d); }
int cudaEventRecord_ptsz(cudaEvent_t e, cudaStream_t s) { return cudaEventRecord(e, PT(s)); }
int cudaEventRecordWithFlags_ptsz(cudaEvent_t e, cudaStream_t s, unsigned f) { return cudaEventRecordWithFlags(e, PT(s), f); }
int cudaStreamWaitEvent_ptsz(cudaStream_t s, cudaEvent_t e, unsigned f) { return cudaStreamWaitEvent(PT(s), e, f); }
int cudaStreamSynchronize_ptsz(cudaStream_t s) { return cudaStreamSynchronize(PT(s)); }
int cudaStreamQuery_ptsz(cudaStream_t s) { return cudaStreamQuery(PT(s)); }
int cudaStreamGetFlags_ptsz(cudaStream_t s, unsigned *f) { return cudaStreamGetFlags(PT(s), f); }
int cudaStreamBeginCapture_ptsz(cudaStream_t s, int mode) { return cudaStreamBeginCapture(PT(s), mode); }
int cudaStreamBeginCaptureToGraph_ptsz(cudaStream_t s, cudaGraph_t g, const cudaGraphNode_t *d, const void *e, size_t n, int mode) {
    return cudaStreamBeginCaptureToGraph(PT(s), g, d, e, n, mode);
}
int cudaStreamEndCapture_ptsz(cudaStream_t s, cudaGraph_t *g) { return cudaStreamEndCapture(PT(s), g); }
int cudaStreamIsCapturing_ptsz(cudaStream_t s, int *st) { return cudaStreamIsCapturing(PT(s), st); }
int cudaStreamGetCaptureInfo_ptsz(cudaStream_t s, int *st, unsigned long long *id, cudaGraph_t *g,
                                  const cudaGraphNode_t **d, const void **e, size_t *n) {
    return cudaStreamGetCaptureInfo(PT(s), st, id, g, d, e, n);
}
int cudaStreamUpdateCaptureDependencies_ptsz(cudaStream_t s, cudaGraphNode_t *d, const void *e, size_t n, unsigned f) {
    return cudaStreamUpdateCaptureDependencies(PT(s), d, e, n, f);
}
int cudaGraphLaunch_ptsz(void *x, cudaStream_t s) { return cudaGraphLaunch(x, PT(s)); }
int cudaGraphUpload_ptsz(void *x, cudaStream_t s) { return cudaGraphUpload(x, PT(s)); }
int cudaMallocAsync_ptsz(void **p, size_t n, cudaStream_t s) { return cudaMallocAsync(p, n, PT(s)); }
int cudaMallocFromPoolAsync_ptsz(void **p, size_t n, void *pool, cudaStream_t s) { return cudaMallocFromPoolAsync(p, n, pool, PT(s)); }
int cudaFreeAsync_ptsz(void *p, cudaStream_t s) { return cudaFreeAsync(p, PT(s)); }

int cudaMemcpy_ptds(void *d, const void *s, size_t n, int k) { return cudaMemcpy(d, s, n, k); }
int cudaMemcpyAsync_ptsz(void *d, const void *s, size_t n, int k, cudaStream_t st) { return cudaMemcpyAsync(d, s, n, k, PT(st)); }
int cudaMemset_ptds(void *d, int v, size_t n) { return cudaMemset(d, v, n); }
int cudaMemsetAsync_ptsz(void *d, int v, size_t n, cudaStream_t st) { return cudaMemsetAsync(d, v, n, PT(st)); }
int cudaMemcpyToSymbol_ptds(const void *sym, const void *s, size_t n, size_t o, int k) { return cudaMemcpyToSymbol(sym, s, n, o, k); }
int cudaMemcpyFromSymbol_ptds(void *d, const void *sym, size_t n, size_t o, int k) { return cudaMemcpyFromSymbol(d, sym, n, o, k); }
int cudaMemcpyToSymbolAsync_ptsz(const void *sym, const void *s, size_t n, size_t o, int k, cudaStream_t st) {
    return cudaMemcpyToSymbolAsync(sym, s, n, o, k, PT(st));
}
int cudaMemcpyFromSymbolAsync_ptsz(void *d, const void *sym, size_t n, size_t o, int k, cudaStream_t st) {
    return cudaMemcpyFromSymbolAsync(d, sym, n, o, k, PT(st));
}
int cudaMemcpy2D_ptds(void *d, size_t dp, const void *s, size_t sp, size_t w, size_t h, int k) { return cudaMemcpy2D(d, dp, s, sp, w, h, k); }
int cudaMemcpy2DAsync_ptsz(void *d, size_t dp, const void *s, size_t sp, size_t w, size_t h, int k, cudaStream_t st) {
    return cudaMemcpy2DAsync(d, dp, s, sp, w, h, k, PT(st));
}
int cudaMemset2D_ptds(void *d, size_t p, int v, size_t w, size_t h) { return cudaMemset2D(d, p, v, w, h); }
int cudaMemset2DAsync_ptsz(void *d, size_t p, int v, size_t w, size_t h, cudaStream_t st) { return cudaMemset2DAsync(d, p, v, w, h, PT(st)); }
int cudaMemcpy3D_ptds(const struct cudaMemcpy3DParms *p) { return cudaMemcpy3D(p); }
int cudaMemcpy3DAsync_ptsz(const struct cudaMemcpy3DParms *p, cudaStream_t st) { return cudaMemcpy3DAsync(p, PT(st)); }
int cudaMemset3D_ptds(struct cudaPitchedPtr p, int v, struct cudaExtent e) { return cudaMemset3D(p, v, e); }
int cudaMemset3DAsync_ptsz(struct cudaPitchedPtr p, int v, struct cudaExtent e, cudaStream_t st) { return cudaMemset3DAsync(p, v, e, PT(st)); }
