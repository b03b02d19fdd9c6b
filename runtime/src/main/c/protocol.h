/*
 * The wire between BarrierScope's libcudart.so.13 (this C library, inside the user's program)
 * and `barrierscope exec` (Java, one JVM and one engine for the whole program).
 * docs/runtime.md, "The wire", describes the same in prose; RuntimeProtocol.java is the Java side.
 *
 * Transport: a Unix domain stream socket whose path is in the environment variable
 * BARRIERSCOPE_SOCKET. Strictly request/reply; the library holds one lock around each exchange.
 * All integers little-endian.
 *
 *   request: u32 op, u32 payload length, payload
 *   reply:   u32 status (a cudaError_t value; 0 success), u32 payload length, payload
 *
 * A string is u32 byte length + UTF-8 bytes (no NUL).
 */
#ifndef BARRIERSCOPE_PROTOCOL_H
#define BARRIERSCOPE_PROTOCOL_H

#define BS_PROTOCOL_VERSION 4

enum bs_op {
    /* u32 version, u32 pid, string program -> (empty) */
    BS_HELLO = 1,
    /* string PTX text -> u32 module id */
    BS_MODULE = 2,
    /* u32 module, string entry -> u32 n, u32 size[n] (the entry's .param sizes, in order),
       u32 static shared bytes, u32 local bytes per thread, u32 constant bytes, u32 cluster[3]
       (the entry's required cluster shape, 0,0,0 when it has none), u32 most threads per block
       (the launch bound, .maxntid/.reqntid, else 1024), u32 offset[n] (each .param's offset) */
    BS_PARAMS = 3,
    /* u64 bytes[, str the CUDA call it is for, named in a refusal; none: cudaMalloc] -> u64 device address */
    BS_MALLOC = 4,
    /* u64 device address -> (empty) */
    BS_FREE = 5,
    /* u64 dst, bytes (rest of payload) -> (empty) */
    BS_WRITE = 6,
    /* u64 src, u64 bytes -> bytes */
    BS_READ = 7,
    /* u64 dst, u64 src, u64 bytes -> (empty) */
    BS_COPY = 8,
    /* u64 dst, u32 byte value, u64 bytes -> (empty) */
    BS_SET = 9,
    /* u32 module, string name -> u64 address, u64 size */
    BS_SYMBOL = 10,
    /* u32 module, string entry, u32 grid[3], u32 block[3], u32 cluster[3] (0,0,0: the entry's own),
       u32 dynamic shared bytes, u32 flags (BS_LAUNCH_COOPERATIVE), bytes (every .param's bytes,
       back to back, sizes as BS_PARAMS)
       -> u64 virtual cycles the launch took, string message (empty on success), u32 n, n ranges
       (u64 address, u32 length, bytes): every byte of mirrored memory (BS_MIRROR) it changed */
    BS_LAUNCH = 11,
    /* string function name -> (empty): an API we do not implement was called (for the summary) */
    BS_UNIMPLEMENTED = 12,
    /* u64 address, u64 bytes, u32 flags (BS_MAP_HOST_READ_ONLY), string the CUDA call -> (empty):
       host memory the program registered, mapped in the engine at its own (host) address;
       BS_FREE unmaps it */
    BS_MAP_HOST = 13,
    /* u64 address, u64 bytes -> (empty): device memory this process holds at the same address
       (managed, pinned, a __managed__ variable; BS_MAP_HOST's ranges are mirrored too) */
    BS_MIRROR = 14,
    /* ranges to the end (u64 address, u32 length, bytes), written into mirrored memory before a
       launch -> u32 stale (1: another process pushed or launched since this one's shadows were
       exact, or a copy reached mirrored memory on the engine: send everything whole); a range
       outside mirrored memory (another process freed it) is skipped, the others written, and the
       status is then cudaErrorInvalidValue */
    BS_PUSH = 15,
    /* u32 n, n strings (the PTX of each object of a program built with -rdc=true) -> u32 module
       id: the objects linked into one module (PtxLinker.java) */
    BS_MODULE_LINK = 16,
    /* u64 bytes -> (empty): cudaLimitMallocHeapSize, the device heap kernels' malloc uses;
       cudaErrorInvalidValue once a kernel that uses malloc or free has been launched (the heap
       is then in place). Numbered apart from the ops above. */
    BS_HEAP_LIMIT = 20
};

/* BS_LAUNCH flags: a cooperative launch (the engine gives it a grid-barrier workspace). */
#define BS_LAUNCH_COOPERATIVE 1u
/* BS_MAP_HOST flags: kernels may only read the range (cudaHostRegisterReadOnly). */
#define BS_MAP_HOST_READ_ONLY 1u

#endif
