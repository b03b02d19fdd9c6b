/*
 * BarrierScope's stand-in for libcudart.so.13, the part that talks to `barrierscope exec`: the
 * socket (protocol.h), the last error, unimplemented calls, and zstd for compressed fat binaries.
 * Nothing runs here: every device operation is a message to `barrierscope exec`, whose engine owns
 * the device memory and runs each kernel. docs/runtime.md lists what is implemented and the limits.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "cudart.h"
#include "protocol.h"

/* ---- the connection ------------------------------------------------------------------------ */

static pthread_mutex_t wire_lock = PTHREAD_MUTEX_INITIALIZER;
static int wire_fd = -1;

void bs_fatal(const char *what) {
    fprintf(stderr, "barrierscope: %s\n", what);
    fflush(stderr);
    _exit(125);
}

static void write_all(const void *p, size_t n) {
    const char *c = p;
    while (n > 0) {
        ssize_t w = write(wire_fd, c, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) bs_fatal("lost the connection to `barrierscope exec` (it ended?); stopping the program");
        c += w;
        n -= (size_t) w;
    }
}

static void read_all(void *p, size_t n) {
    char *c = p;
    while (n > 0) {
        ssize_t r = read(wire_fd, c, n);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) bs_fatal("lost the connection to `barrierscope exec` (it ended?); stopping the program");
        c += r;
        n -= (size_t) r;
    }
}

static pid_t wire_pid;

static void connect_once(void) {
    /* A forked child (a test harness's death test) must not share its parent's connection: it
       gets its own, and its copy of the parent's socket is closed (the parent's stays open). */
    if (wire_fd >= 0 && wire_pid != getpid()) {
        close(wire_fd);
        wire_fd = -1;
    }
    if (wire_fd >= 0) return;
    const char *path = getenv("BARRIERSCOPE_SOCKET");
    if (path == NULL || *path == 0) {
        bs_fatal("this program loaded BarrierScope's CUDA runtime (libcudart.so.13) but was not started by "
                 "`barrierscope exec`; run it as: barrierscope exec -- PROGRAM ARGS");
    }
    struct sockaddr_un a;
    memset(&a, 0, sizeof a);
    a.sun_family = AF_UNIX;
    if (strlen(path) >= sizeof a.sun_path) bs_fatal("BARRIERSCOPE_SOCKET path is too long");
    strcpy(a.sun_path, path);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0 || connect(fd, (struct sockaddr *) &a, sizeof a) != 0) {
        bs_fatal("cannot connect to `barrierscope exec` at BARRIERSCOPE_SOCKET; run the program as: barrierscope exec -- PROGRAM ARGS");
    }
    wire_fd = fd;
    wire_pid = getpid();
    /* HELLO carries the program's name for messages. */
    char exe[512];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[n > 0 ? n : 0] = 0;
    bs_buf b = {0};
    bs_put_u32(&b, BS_PROTOCOL_VERSION);
    bs_put_u32(&b, (uint32_t) getpid());
    bs_put_str(&b, exe);
    bs_buf r = {0};
    uint32_t st = bs_call_locked(BS_HELLO, &b, &r);
    free(b.p);
    free(r.p);
    if (st != 0) bs_fatal("`barrierscope exec` refused this program (protocol version mismatch: rebuild BarrierScope)");
}

void bs_put(bs_buf *b, const void *p, size_t n) {
    if (b->len + n > b->cap) {
        size_t c = b->cap ? b->cap : 256;
        while (c < b->len + n) c *= 2;
        b->p = realloc(b->p, c);
        if (b->p == NULL) bs_fatal("out of host memory");
        b->cap = c;
    }
    memcpy(b->p + b->len, p, n);
    b->len += n;
}

void bs_put_u32(bs_buf *b, uint32_t v) { bs_put(b, &v, 4); }
void bs_put_u64(bs_buf *b, uint64_t v) { bs_put(b, &v, 8); }
void bs_put_str(bs_buf *b, const char *s) {
    size_t n = strlen(s);
    bs_put_u32(b, (uint32_t) n);
    bs_put(b, s, n);
}

/* One exchange; the caller holds wire_lock (or is connect_once, which runs under it). */
uint32_t bs_call_locked(uint32_t op, const bs_buf *req, bs_buf *reply) {
    uint32_t head[2] = {op, (uint32_t) req->len};
    if (req->len > 0xFFFFFFF0u) bs_fatal("a request larger than 4 GiB");
    write_all(head, sizeof head);
    if (req->len) write_all(req->p, req->len);
    read_all(head, sizeof head);
    reply->len = 0;
    if (head[1]) {
        reply->p = realloc(reply->p, head[1]);
        if (reply->p == NULL) bs_fatal("out of host memory");
        reply->cap = head[1];
        read_all(reply->p, head[1]);
        reply->len = head[1];
    }
    return head[0];
}

void bs_wire_hold(int hold) {
    if (hold) pthread_mutex_lock(&wire_lock);
    else pthread_mutex_unlock(&wire_lock);
}

uint32_t bs_call(uint32_t op, const bs_buf *req, bs_buf *reply) {
    pthread_mutex_lock(&wire_lock);
    connect_once();
    uint32_t st = bs_call_locked(op, req, reply);
    pthread_mutex_unlock(&wire_lock);
    return st;
}

uint32_t bs_get_u32(const bs_buf *b, size_t at) {
    uint32_t v = 0;
    if (at + 4 <= b->len) memcpy(&v, b->p + at, 4);
    return v;
}

uint64_t bs_get_u64(const bs_buf *b, size_t at) {
    uint64_t v = 0;
    if (at + 8 <= b->len) memcpy(&v, b->p + at, 8);
    return v;
}

/* ---- errors ---------------------------------------------------------------------------------- */

static __thread int last_error;
/* The sticky error: the first launch that failed with cudaErrorIllegalAddress,
   cudaErrorLaunchTimeout, cudaErrorLaunchFailure or cudaErrorAssert. CUDA's documentation of those codes
   (driver_types.h): "This leaves the process in an inconsistent state and any further CUDA work
   will return the same error. To continue using CUDA, the process must be terminated and
   relaunched." So from then on every call that does device work returns it (bs_sticky), and
   cudaGetLastError cannot clear it (docs/runtime.md, "Failed launches"). Process-wide, as a
   CUDA context is. */
static int sticky_error;

int bs_set(int e) {
    if (e != 0) last_error = e;
    return e;
}

/* The driver API has no last error: its calls here (library.c, register.c) are the runtime's
   underneath, so they put back the runtime's as it was before them. */
int bs_last_error(void) { return last_error; }
void bs_last_error_restore(int e) { last_error = e; }

int bs_sticky(void) {
    int e = __atomic_load_n(&sticky_error, __ATOMIC_ACQUIRE);
    if (e != 0) last_error = e;
    return e;
}

void bs_set_sticky(int e) {
    int none = 0;
    __atomic_compare_exchange_n(&sticky_error, &none, e, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}

int cudaGetLastError(void) {
    int s = bs_sticky();
    if (s != 0) return s;
    int e = last_error;
    last_error = 0;
    return e;
}

int cudaPeekAtLastError(void) {
    int s = bs_sticky();
    return s != 0 ? s : last_error;
}

/* Reported once per function: an API we do not implement (stubs.c calls it for every other
   export of the real libcudart.so.13). */
int bs_unimplemented(const char *name) {
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    static char *seen[64];
    static int nseen;
    int first = 1;
    pthread_mutex_lock(&lock);
    for (int i = 0; i < nseen; i++) if (strcmp(seen[i], name) == 0) first = 0;
    if (first && nseen < 64) seen[nseen++] = strdup(name);
    pthread_mutex_unlock(&lock);
    if (first) {
        fprintf(stderr, "barrierscope: %s is not implemented by BarrierScope's CUDA runtime yet; it returns "
                        "cudaErrorNotSupported (docs/runtime.md lists what is implemented; avoid the call or ask for it)\n", name);
        fflush(stderr);
        bs_buf b = {0}, r = {0};
        bs_put_str(&b, name);
        bs_call(BS_UNIMPLEMENTED, &b, &r);
        free(b.p);
        free(r.p);
    }
    return bs_set(cudaErrorNotSupported);
}

/* ---- zstd, for compressed fat binaries (nvcc 13 compresses by default) ------------------------ */

typedef size_t (*zstd_decompress_fn)(void *, size_t, const void *, size_t);
typedef unsigned (*zstd_is_error_fn)(size_t);

/* libzstd is loaded only when a fat binary is compressed, so building needs no zstd headers. */
char *bs_zstd(const unsigned char *src, size_t n, size_t out_size, const char **why) {
    static void *lib;
    if (lib == NULL) lib = dlopen("libzstd.so.1", RTLD_NOW | RTLD_LOCAL);
    if (lib == NULL) {
        *why = "its PTX is zstd-compressed and libzstd.so.1 is not installed (apt-get install libzstd1), "
               "or rebuild the program with nvcc --no-compress";
        return NULL;
    }
    zstd_decompress_fn dec = (zstd_decompress_fn) dlsym(lib, "ZSTD_decompress");
    zstd_is_error_fn is_err = (zstd_is_error_fn) dlsym(lib, "ZSTD_isError");
    char *out = malloc(out_size + 1);
    if (dec == NULL || is_err == NULL || out == NULL) {
        *why = "libzstd.so.1 lacks ZSTD_decompress";
        free(out);
        return NULL;
    }
    size_t got = dec(out, out_size, src, n);
    if (is_err(got)) {
        *why = "its compressed PTX does not decompress (a damaged fat binary?)";
        free(out);
        return NULL;
    }
    out[got] = 0;
    return out;
}
