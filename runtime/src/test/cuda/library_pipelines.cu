// The synchronization patterns a library's pipeline classes are built from, written as a
// googletest suite the way library test suites are built (nvcc -cudart shared, gtest_main):
// per-stage full/empty mbarriers shared across a thread block cluster (transaction counts
// completed in peer CTAs through mapa, consumer releases arriving on every CTA of the same
// cluster row and column), barrier init made visible with fence.mbarrier_init and a cluster
// barrier, elect.sync leaders, warp-specialized producer/consumer warpgroups that trade
// registers with setmaxnreg, ordered sequence barriers between warpgroups, a cp.async pipeline
// signalled by cp.async.mbarrier.arrive, and the host side: cudaLaunchKernelExC with a cluster
// dimension, cudaFuncSetAttribute (dynamic shared memory, non-portable 16-CTA clusters),
// cudaOccupancyMaxActiveClusters and events. Every kernel moves real values through its stages
// and the host checks them, so a pipeline that only "does not deadlock" is not enough.
//
// PIPE_ITERS=N in the environment replaces each test's list of iteration counts by N (to time
// a library-sized run by hand); the suite itself keeps them small.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>
#include <gtest/gtest.h>

// ---------------------------------------------------------------- device helpers (inline PTX)

__device__ __forceinline__ unsigned shared_address(const void *p) {
    return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ void mbar_init(uint64_t *bar, unsigned count) {
    asm volatile("{\n\tmbarrier.init.shared::cta.b64 [%0], %1;\n\t}" ::"r"(shared_address(bar)), "r"(count) : "memory");
}

__device__ __forceinline__ void mbar_init_fence() {
    asm volatile("{\n\tfence.mbarrier_init.release.cluster;\n\t}" ::: "memory");
}

// Blocks until the phase with the given parity has completed: try_wait with a suspend-time
// hint, retried. The labels live in their own { } scope, so every inlined copy has its own.
__device__ __forceinline__ void mbar_wait(uint64_t *bar, unsigned parity) {
    asm volatile(
        "{\n\t"
        ".reg .pred ready;\n\t"
        "RETRY:\n\t"
        "mbarrier.try_wait.parity.shared::cta.b64 ready, [%0], %1, %2;\n\t"
        "@ready bra FINISHED;\n\t"
        "bra RETRY;\n\t"
        "FINISHED:\n\t"
        "}" ::"r"(shared_address(bar)),
        "r"(parity), "r"(0x989680u)
        : "memory");
}

// One try_wait without a hint: true when the phase has completed.
__device__ __forceinline__ bool mbar_try(uint64_t *bar, unsigned parity) {
    unsigned done;
    asm volatile(
        "{\n\t"
        ".reg .pred ready;\n\t"
        "mbarrier.try_wait.parity.shared::cta.b64 ready, [%1], %2;\n\t"
        "selp.b32 %0, 1, 0, ready;\n\t"
        "}"
        : "=r"(done)
        : "r"(shared_address(bar)), "r"(parity)
        : "memory");
    return done != 0;
}

// A non-blocking test_wait, guarded by a predicate operand as pipeline code writes it.
__device__ __forceinline__ bool mbar_test(uint64_t *bar, unsigned parity, unsigned enabled) {
    unsigned done;
    asm volatile(
        "{\n\t"
        ".reg .pred ready;\n\t"
        ".reg .pred on;\n\t"
        "setp.eq.u32 on, %3, 1;\n\t"
        "@on mbarrier.test_wait.parity.shared::cta.b64 ready, [%1], %2;\n\t"
        "selp.b32 %0, 1, 0, ready;\n\t"
        "}"
        : "=r"(done)
        : "r"(shared_address(bar)), "r"(parity), "r"(enabled)
        : "memory");
    return done != 0;
}

__device__ __forceinline__ void mbar_arrive_local(uint64_t *bar) {
    asm volatile("{\n\tmbarrier.arrive.shared::cta.b64 _, [%0];\n\t}" ::"r"(shared_address(bar)) : "memory");
}

// Arrive on the mbarrier at the same offset in CTA `rank` of the cluster (the own rank too).
__device__ __forceinline__ void mbar_arrive_in(uint64_t *bar, unsigned rank) {
    asm volatile(
        "{\n\t"
        ".reg .b32 peer;\n\t"
        "mapa.shared::cluster.u32 peer, %0, %1;\n\t"
        "mbarrier.arrive.shared::cluster.b64 _, [peer];\n\t"
        "}" ::"r"(shared_address(bar)),
        "r"(rank)
        : "memory");
}

__device__ __forceinline__ void mbar_arrive_expect_tx(uint64_t *bar, unsigned bytes) {
    asm volatile("{\n\tmbarrier.arrive.expect_tx.shared::cta.b64 _, [%1], %0;\n\t}" ::"r"(bytes), "r"(shared_address(bar)) : "memory");
}

// Complete `bytes` of the transaction count of the mbarrier at the same offset in CTA `rank`,
// when `enabled` is 1 (relaxed: it orders nothing, as a copy engine's completion would).
__device__ __forceinline__ void mbar_complete_tx_in(uint64_t *bar, unsigned rank, unsigned bytes, unsigned enabled) {
    unsigned peer;
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(peer) : "r"(shared_address(bar)), "r"(rank));
    asm volatile(
        "{\n\t"
        ".reg .pred on;\n\t"
        "setp.eq.u32 on, %2, 1;\n\t"
        "@on mbarrier.complete_tx.shared::cluster.relaxed.cluster.b64 [%1], %0;\n\t"
        "}" ::"r"(bytes),
        "r"(peer), "r"(enabled)
        : "memory");
}

__device__ __forceinline__ void cluster_arrive_relaxed() { asm volatile("barrier.cluster.arrive.relaxed.aligned;" ::: "memory"); }
__device__ __forceinline__ void cluster_arrive() { asm volatile("barrier.cluster.arrive.aligned;" ::: "memory"); }
__device__ __forceinline__ void cluster_wait() { asm volatile("barrier.cluster.wait.aligned;" ::: "memory"); }

__device__ __forceinline__ unsigned cta_rank() { unsigned r; asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r)); return r; }
__device__ __forceinline__ unsigned cta_x() { unsigned r; asm volatile("mov.u32 %0, %%cluster_ctaid.x;" : "=r"(r)); return r; }
__device__ __forceinline__ unsigned cta_y() { unsigned r; asm volatile("mov.u32 %0, %%cluster_ctaid.y;" : "=r"(r)); return r; }
__device__ __forceinline__ unsigned cluster_width() { unsigned r; asm volatile("mov.u32 %0, %%cluster_nctaid.x;" : "=r"(r)); return r; }
__device__ __forceinline__ unsigned cluster_height() { unsigned r; asm volatile("mov.u32 %0, %%cluster_nctaid.y;" : "=r"(r)); return r; }

// 1 in the lowest lane of the full warp, 0 elsewhere (its scratch registers named with a
// leading %, as library code often names them).
__device__ __forceinline__ unsigned elect_one() {
    unsigned chosen = 0, lane = 0;
    asm volatile(
        "{\n\t"
        ".reg .b32 %%leader;\n\t"
        ".reg .pred %%me;\n\t"
        "elect.sync %%leader|%%me, %2;\n\t"
        "@%%me mov.u32 %1, 1;\n\t"
        "mov.u32 %0, %%leader;\n\t"
        "}"
        : "+r"(lane), "+r"(chosen)
        : "r"(0xffffffffu));
    return chosen;
}

// wgmma and setmaxnreg exist only for sm_90a: nvcc 13 also embeds plain compute_90 PTX, where
// they are left out (the engine runs the compute_90a PTX).
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
__device__ __forceinline__ void warpgroup_fence() { asm volatile("wgmma.fence.sync.aligned;" ::: "memory"); }
template <int N> __device__ __forceinline__ void registers_up() { asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;" ::"n"(N)); }
template <int N> __device__ __forceinline__ void registers_down() { asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;" ::"n"(N)); }
#else
__device__ __forceinline__ void warpgroup_fence() {}
template <int N> __device__ __forceinline__ void registers_up() {}
template <int N> __device__ __forceinline__ void registers_down() {}
#endif
__device__ __forceinline__ void named_sync(unsigned id, unsigned threads) { asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(threads) : "memory"); }

// A stage index and the parity of its current round; starts at `n` stages in.
template <int S> struct Cursor {
    int index;
    unsigned parity;
    __device__ explicit Cursor(unsigned n = 0, unsigned flip = 0) : index(n % S), parity(((n / S) & 1) ^ flip) {}
    __device__ void next() { if (++index == S) { index = 0; parity ^= 1; } }
};

// --------------------------------------- a transaction-count pipeline across a thread block cluster
//
// Each CTA's producer fills stage s of every CTA in its cluster row and column: it counts the
// bytes it delivers on each of their full barriers (complete_tx through mapa), and each full
// barrier expects the bytes of all CX + CY - 1 producers that feed it (arrive.expect_tx by its own
// producer). A stage is free again when every consumer warpgroup of the row and column has
// released it: one thread per destination CTA arrives on that CTA's empty barrier.
// The value itself is written by the CTA's own producer into its own slot before its
// arrive.expect_tx (a release), and each consumer checks it is the stage number it expects.

template <int S> struct PipeShared {
    uint64_t full[S];
    uint64_t empty[S];
    int slot[S];
    uint64_t order[2][2]; // ordered sequence barrier of the two consumer warpgroups (warp-specialized)
};

struct PipeParams {
    unsigned iters;   // stages per tile
    unsigned tiles;   // tiles (warp-specialized form: alternating between the consumer warpgroups)
    int *consumed;    // per CTA: stages its consumers took
    int *mismatches;  // stages whose value was not the expected one
};

template <int S> __device__ void pipe_init(PipeShared<S> &sh, unsigned empty_count) {
    if (threadIdx.x / 32 == 0 && elect_one()) {
        for (int i = 0; i < S; i++) {
            mbar_init(&sh.full[i], 1);
            mbar_init(&sh.empty[i], empty_count);
        }
        for (int d = 0; d < 2; d++)
            for (int g = 0; g < 2; g++) mbar_init(&sh.order[d][g], 128);
    }
    mbar_init_fence();
}

// The producer's stage n: wait until it is free, write it, expect everyone's bytes, deliver ours.
template <int S> __device__ void produce(PipeShared<S> &sh, Cursor<S> &w, unsigned n, unsigned feeders) {
    mbar_wait(&sh.empty[w.index], w.parity);
    sh.slot[w.index] = (int) n;
    mbar_arrive_expect_tx(&sh.full[w.index], 4 * feeders);
    unsigned cx = cluster_width(), cy = cluster_height(), x = cta_x(), y = cta_y();
    mbar_complete_tx_in(&sh.full[w.index], cta_rank(), 4, 1);
    for (unsigned j = 0; j < cy; j++) mbar_complete_tx_in(&sh.full[w.index], x + j * cx, 4, j != y);
    for (unsigned i = 0; i < cx; i++) mbar_complete_tx_in(&sh.full[w.index], i + y * cx, 4, i != x);
    w.next();
}

// This consumer thread's duty: the CTA it releases stages to, if any (16 threads of a warpgroup
// cover the 16 possible ranks; only CTAs of the same row or column take releases).
__device__ __forceinline__ bool release_target(unsigned wg_thread, unsigned &dst) {
    if (wg_thread % 8 != 0) return false;
    dst = wg_thread / 8;
    unsigned cx = cluster_width(), cy = cluster_height();
    if (dst >= cx * cy) return false;
    return dst % cx == cta_x() || dst / cx == cta_y();
}

// Every thread of a consumer warpgroup: wait for stage n, check it, and once the whole group
// has read it, release it to every CTA that fed it.
template <int S> __device__ void consume(PipeShared<S> &sh, Cursor<S> &r, unsigned n, bool signals, unsigned dst,
                                         unsigned group_barrier, int &bad) {
    if (!mbar_try(&sh.full[r.index], r.parity)) mbar_wait(&sh.full[r.index], r.parity);
    warpgroup_fence();
    if (sh.slot[r.index] != (int) n) bad++;
    named_sync(group_barrier, 128);
    if (signals) mbar_arrive_in(&sh.empty[r.index], dst);
    r.next();
}

// 128 threads, every one a consumer; one elected thread of warp 0 is also the producer, which
// runs ahead by the pipeline's depth, releases trailing reads by one stage (so two stages are
// held at once), and the CTA leaves through a cluster barrier so no peer arrives on a CTA that
// has exited.
template <int CX, int CY, int S> __global__ static void cluster_pipeline(PipeParams p) {
    extern __shared__ __align__(16) char smem[];
    auto &sh = *reinterpret_cast<PipeShared<S> *>(smem);
    const unsigned feeders = CX + CY - 1;
    pipe_init<S>(sh, feeders);
    __syncthreads();
    cluster_arrive_relaxed();
    cluster_wait();

    unsigned dst = 0;
    bool signals = release_target(threadIdx.x, dst);
    bool producer = threadIdx.x / 32 == 0 && elect_one();
    Cursor<S> write(0, 1), read, release;
    unsigned produced = 0;
    int bad = 0;
    for (; producer && produced < S && produced < p.iters; produced++) produce<S>(sh, write, produced, feeders);
    for (unsigned k = 0; k < p.iters; k++) {
        if (!mbar_try(&sh.full[read.index], read.parity)) mbar_wait(&sh.full[read.index], read.parity);
        warpgroup_fence();
        if (sh.slot[read.index] != (int) k) bad++;
        read.next();
        if (k > 0) { // release the stage before this one, then refill it
            named_sync(1, 128);
            if (signals) mbar_arrive_in(&sh.empty[release.index], dst);
            release.next();
            if (producer && produced < p.iters) produce<S>(sh, write, produced++, feeders);
        }
    }
    if (bad) atomicAdd(p.mismatches, bad);
    if (threadIdx.x == 0) p.consumed[cta_rank()] = (int) p.iters;
    cluster_arrive();
    cluster_wait();
}

// 384 threads: warpgroup 0 produces (and gives registers back), warpgroups 1 and 2 consume
// alternate tiles (and take registers), a persistent ping-pong: an ordered sequence barrier lets
// warpgroup 1 run a tile's main loop, then 2, then 1 ..., and the same for the epilogue, which
// sleeps. The producer leaves only after every stage it filled was released (its tail), so peers
// never arrive on an exited CTA; there is no cluster barrier at the end.
template <int CX, int CY, int S> __global__ static void __launch_bounds__(384, 1) specialized_pipeline(PipeParams p) {
    extern __shared__ __align__(16) char smem[];
    auto &sh = *reinterpret_cast<PipeShared<S> *>(smem);
    const unsigned feeders = CX + CY - 1;
    unsigned wg = __shfl_sync(0xffffffffu, threadIdx.x / 128, 0);
    pipe_init<S>(sh, feeders);
    __syncthreads();
    cluster_arrive_relaxed();
    cluster_wait();

    if (wg == 0) {
        registers_down<40>();
        if (threadIdx.x / 32 == 0 && elect_one()) {
            Cursor<S> write(0, 1);
            unsigned total = p.iters * p.tiles;
            for (unsigned n = 0; n < total; n++) produce<S>(sh, write, n, feeders);
            // The tail acquires each stage once more as the main loop does, arrive.expect_tx
            // included: those phases stay open when the CTA exits, which is allowed.
            for (int i = 0; i < S; i++) {
                mbar_wait(&sh.empty[write.index], write.parity);
                mbar_arrive_expect_tx(&sh.full[write.index], 4 * feeders);
                write.next();
            }
        }
        return;
    }
    registers_up<232>();
    unsigned group = wg - 1, t = threadIdx.x % 128, dst = 0;
    bool signals = release_target(t, dst);
    int bad = 0, took = 0;
    Cursor<2> order(0, group == 0); // group 0 goes first
    for (unsigned tile = group; tile < p.tiles; tile += 2) {
        mbar_wait(&sh.order[order.index][group], order.parity); // main loop, in turn
        Cursor<S> read(tile * p.iters);
        for (unsigned k = 0; k < p.iters; k++) consume<S>(sh, read, tile * p.iters + k, signals, dst, 1 + group, bad);
        took += p.iters;
        mbar_arrive_local(&sh.order[order.index][group ^ 1]);
        order.next();
        mbar_wait(&sh.order[order.index][group], order.parity); // epilogue, in turn
        __nanosleep(1000);
        mbar_arrive_local(&sh.order[order.index][group ^ 1]);
        order.next();
    }
    if (bad) atomicAdd(p.mismatches, bad);
    if (t == 0 && took) atomicAdd(&p.consumed[cta_rank()], took);
}

// ------------------------------------------------------------- a plain arrive-count pipeline
//
// 96 threads: one elected lane of warps 0 and 1 each produce (the full barrier counts two
// arrivals); one lane of warp 2 consumes, checking both values, and releases through mapa to its
// own CTA. Producers skip the acquire while the stages are fresh, as such pipelines do.

template <int S> struct AsyncShared {
    uint64_t full[S];
    uint64_t empty[S];
    int slot[S][2];
};

template <int S> __global__ static void async_pipeline(unsigned iters, int *mismatches, int *consumed) {
    extern __shared__ __align__(16) char smem[];
    auto &sh = *reinterpret_cast<AsyncShared<S> *>(smem);
    unsigned warp = __shfl_sync(0xffffffffu, threadIdx.x / 32, 0);
    bool lead = elect_one();
    if (warp == 0 && lead)
        for (int i = 0; i < S; i++) { mbar_init(&sh.full[i], 2); mbar_init(&sh.empty[i], 1); }
    mbar_init_fence();
    cluster_arrive_relaxed();
    cluster_wait();
    __syncthreads();
    if (lead && warp < 2) {
        Cursor<S> w(0, 1);
        for (unsigned n = 0; n < iters; n++) {
            if (n >= S) mbar_wait(&sh.empty[w.index], w.parity);
            sh.slot[w.index][warp] = (int) (n * 2 + warp);
            mbar_arrive_local(&sh.full[w.index]);
            w.next();
        }
    } else if (lead) {
        Cursor<S> r;
        int bad = 0;
        for (unsigned n = 0; n < iters; n++) {
            if (!mbar_test(&sh.full[r.index], r.parity, 1)) mbar_wait(&sh.full[r.index], r.parity);
            if (sh.slot[r.index][0] != (int) (n * 2) || sh.slot[r.index][1] != (int) (n * 2 + 1)) bad++;
            mbar_arrive_in(&sh.empty[r.index], cta_rank());
            r.next();
        }
        if (bad) atomicAdd(mismatches, bad);
        consumed[cta_rank()] = (int) iters;
    }
    cluster_arrive();
    cluster_wait();
}

// ------------------------------------------------------------------ an ordered sequence barrier
//
// G groups of 128 threads take turns through two stages per iteration: group g waits on its own
// barrier of the stage and then arrives on group g+1's. Each turn's holder appends its group to
// that stage's log, so the host sees the order the barrier enforced.

template <int G> __global__ static void ordered_sequence(unsigned iters, int *log) {
    __shared__ uint64_t bars[2][G];
    __shared__ int next[2];
    unsigned g = threadIdx.x / 128;
    if (threadIdx.x / 32 == 0 && elect_one()) {
        for (int d = 0; d < 2; d++) {
            next[d] = 0;
            for (int i = 0; i < G; i++) mbar_init(&bars[d][i], 128);
        }
    }
    mbar_init_fence();
    __syncthreads();
    cluster_arrive_relaxed();
    cluster_wait();
    Cursor<2> c(0, g == 0);
    for (unsigned i = 0; i < 2 * iters; i++) {
        mbar_wait(&bars[c.index][g], c.parity);
        if (threadIdx.x % 128 == 0) log[c.index * 2 * iters * G + next[c.index]++] = (int) g;
        __nanosleep(2000);
        mbar_arrive_local(&bars[c.index][(g + 1) % G]);
        c.next();
    }
}

// ------------------------------------------------------------------------ a cp.async pipeline
//
// Warp 0 copies 32 integers per stage from global memory with cp.async and lets each lane's
// cp.async.mbarrier.arrive.noinc signal the stage's full barrier (count 32) when its copy lands;
// warp 1 sums what lands and every lane releases the stage.

template <int S> __global__ static void cp_async_pipeline(const int *src, unsigned iters, int *sums) {
    __shared__ __align__(16) int buf[S][32];
    __shared__ uint64_t full[S], empty[S];
    unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    if (warp == 0 && elect_one())
        for (int i = 0; i < S; i++) { mbar_init(&full[i], 32); mbar_init(&empty[i], 32); }
    mbar_init_fence();
    __syncthreads();
    if (warp == 0) {
        Cursor<S> w(0, 1);
        for (unsigned n = 0; n < iters; n++) {
            mbar_wait(&empty[w.index], w.parity);
            asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(shared_address(&buf[w.index][lane])), "l"(src + n * 32 + lane) : "memory");
            asm volatile("cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%0];" ::"r"(shared_address(&full[w.index])) : "memory");
            w.next();
        }
        asm volatile("cp.async.wait_all;" ::: "memory");
    } else {
        Cursor<S> r;
        int sum = 0;
        for (unsigned n = 0; n < iters; n++) {
            mbar_wait(&full[r.index], r.parity);
            sum += buf[r.index][lane];
            mbar_arrive_local(&empty[r.index]);
            r.next();
        }
        sums[lane] = sum;
    }
}

// ----------------------------------------------------------------------------------- the host

static std::vector<unsigned> iteration_counts(std::vector<unsigned> wanted) {
    if (const char *e = std::getenv("PIPE_ITERS")) return {(unsigned) std::strtoul(e, nullptr, 10)};
    return wanted;
}

// A launch configuration with one cluster-dimension attribute (stored in *attr).
static cudaLaunchConfig_t cluster_config(dim3 grid, dim3 cluster, dim3 block, size_t smem, cudaLaunchAttribute *attr) {
    cudaLaunchConfig_t config = {};
    config.gridDim = grid;
    config.blockDim = block;
    config.dynamicSmemBytes = smem;
    attr->id = cudaLaunchAttributeClusterDimension;
    attr->val.clusterDim.x = cluster.x;
    attr->val.clusterDim.y = cluster.y;
    attr->val.clusterDim.z = cluster.z;
    config.attrs = attr;
    config.numAttrs = 1;
    return config;
}

// A cluster launch as library code makes one: opt in to non-portable cluster sizes, raise the
// dynamic shared memory limit, then cudaLaunchKernelExC with a cluster-dimension attribute.
static cudaError_t launch_on_cluster(const void *kernel, dim3 grid, dim3 cluster, dim3 block, size_t smem, void **args) {
    cudaError_t e = cudaFuncSetAttribute(kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
    if (e != cudaSuccess) return e;
    e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int) smem);
    if (e != cudaSuccess) return e;
    cudaLaunchAttribute attr;
    cudaLaunchConfig_t config = cluster_config(grid, cluster, block, smem, &attr);
    return cudaLaunchKernelExC(&config, kernel, args);
}

struct Counters {
    int *consumed = nullptr, *mismatches = nullptr;
    Counters() {
        EXPECT_EQ(cudaSuccess, cudaMalloc(&consumed, 16 * sizeof(int)));
        EXPECT_EQ(cudaSuccess, cudaMalloc(&mismatches, sizeof(int)));
    }
    ~Counters() { cudaFree(consumed); cudaFree(mismatches); }
    void clear() {
        EXPECT_EQ(cudaSuccess, cudaMemset(consumed, 0, 16 * sizeof(int)));
        EXPECT_EQ(cudaSuccess, cudaMemset(mismatches, 0, sizeof(int)));
    }
    void expect(int ctas, int each) {
        int c[16], m = -1;
        ASSERT_EQ(cudaSuccess, cudaMemcpy(c, consumed, sizeof c, cudaMemcpyDeviceToHost));
        ASSERT_EQ(cudaSuccess, cudaMemcpy(&m, mismatches, sizeof m, cudaMemcpyDeviceToHost));
        EXPECT_EQ(0, m) << "stages whose value was not the one produced";
        for (int i = 0; i < ctas; i++) EXPECT_EQ(each, c[i]) << "stages consumed by CTA " << i;
    }
};

// Launches one cluster of `kernel` per iteration count and checks every CTA consumed each stage.
template <int CX, int CY, int S> static void run_pipeline(const void *kernel, dim3 block, std::vector<unsigned> iters, unsigned tiles) {
    Counters k;
    cudaEvent_t start, stop;
    ASSERT_EQ(cudaSuccess, cudaEventCreate(&start));
    ASSERT_EQ(cudaSuccess, cudaEventCreate(&stop));
    for (unsigned n : iteration_counts(iters)) {
        k.clear();
        PipeParams p{n, tiles, k.consumed, k.mismatches};
        void *args[] = {&p};
        ASSERT_EQ(cudaSuccess, cudaEventRecord(start));
        ASSERT_EQ(cudaSuccess, launch_on_cluster(kernel, dim3(CX, CY), dim3(CX, CY, 1), block, sizeof(PipeShared<S>), args));
        ASSERT_EQ(cudaSuccess, cudaEventRecord(stop));
        ASSERT_EQ(cudaSuccess, cudaDeviceSynchronize()) << n << " iterations";
        float ms = -1;
        ASSERT_EQ(cudaSuccess, cudaEventElapsedTime(&ms, start, stop));
        EXPECT_GT(ms, 0.0f);
        if (std::getenv("PIPE_ITERS")) printf("%u iterations x %u tiles: %.3f ms between the events\n", n, tiles, ms);
        k.expect(CX * CY, (int) (n * tiles));
    }
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
}

template <int CX, int CY, int S> static void run_cluster_pipeline(std::vector<unsigned> iters) {
    run_pipeline<CX, CY, S>((const void *) cluster_pipeline<CX, CY, S>, dim3(128), iters, 1);
}

template <int CX, int CY, int S> static void run_specialized_pipeline(std::vector<unsigned> iters, unsigned tiles) {
    run_pipeline<CX, CY, S>((const void *) specialized_pipeline<CX, CY, S>, dim3(384), iters, tiles);
}

TEST(ClusterPipeline, Cluster1x1_Stage2) { run_cluster_pipeline<1, 1, 2>({1, 2, 9}); }
TEST(ClusterPipeline, Cluster2x1_Stage5) { run_cluster_pipeline<2, 1, 5>({3, 12}); }
TEST(ClusterPipeline, Cluster2x2_Stage3) { run_cluster_pipeline<2, 2, 3>({1, 10}); }
TEST(ClusterPipeline, Cluster1x4_Stage7) { run_cluster_pipeline<1, 4, 7>({9}); }
TEST(ClusterPipeline, Cluster4x4_Stage2_NonPortable) { run_cluster_pipeline<4, 4, 2>({5}); }

TEST(SpecializedPipeline, Cluster1x1_Stage2_PingPong) { run_specialized_pipeline<1, 1, 2>({1, 7}, 3); }
TEST(SpecializedPipeline, Cluster2x2_Stage4_PingPong) { run_specialized_pipeline<2, 2, 4>({6}, 4); }
TEST(SpecializedPipeline, Cluster4x2_Stage3_PingPong) { run_specialized_pipeline<4, 2, 3>({4}, 2); }
TEST(SpecializedPipeline, Cluster4x4_Stage2_PingPong) { run_specialized_pipeline<4, 4, 2>({3}, 2); }

template <int S> static void run_async_pipeline(dim3 cluster, std::vector<unsigned> iters) {
    Counters k;
    for (unsigned n : iteration_counts(iters)) {
        k.clear();
        void *args[] = {&n, &k.mismatches, &k.consumed};
        ASSERT_EQ(cudaSuccess, launch_on_cluster((const void *) async_pipeline<S>, cluster, cluster, dim3(96), sizeof(AsyncShared<S>), args));
        ASSERT_EQ(cudaSuccess, cudaDeviceSynchronize());
        k.expect(cluster.x * cluster.y, (int) n);
    }
}

TEST(AsyncPipeline, Cluster1x1_Stage2) { run_async_pipeline<2>(dim3(1, 1, 1), {1, 2, 11}); }
TEST(AsyncPipeline, Cluster2x2_Stage7) { run_async_pipeline<7>(dim3(2, 2, 1), {5, 16}); }

template <int G> static void run_ordered_sequence(unsigned iters) {
    int *log;
    size_t entries = 2 * iters * G;
    ASSERT_EQ(cudaSuccess, cudaMalloc(&log, 2 * entries * sizeof(int)));
    ASSERT_EQ(cudaSuccess, cudaMemset(log, 0xff, 2 * entries * sizeof(int)));
    void *args[] = {&iters, &log};
    ASSERT_EQ(cudaSuccess, launch_on_cluster((const void *) ordered_sequence<G>, dim3(1), dim3(1, 1, 1), dim3(128 * G), 0, args));
    ASSERT_EQ(cudaSuccess, cudaDeviceSynchronize());
    std::vector<int> h(2 * entries);
    ASSERT_EQ(cudaSuccess, cudaMemcpy(h.data(), log, h.size() * sizeof(int), cudaMemcpyDeviceToHost));
    for (int stage = 0; stage < 2; stage++)
        for (size_t i = 0; i < iters * G; i++) ASSERT_EQ((int) (i % G), h[stage * entries + i]) << "stage " << stage << " turn " << i;
    cudaFree(log);
}

TEST(OrderedSequence, Depth2_Groups2) { run_ordered_sequence<2>(iteration_counts({6})[0]); }
TEST(OrderedSequence, Depth2_Groups5) { run_ordered_sequence<5>(iteration_counts({3})[0]); }

TEST(CpAsyncPipeline, Stage3) {
    for (unsigned n : iteration_counts({1, 10})) {
        std::vector<int> h(n * 32);
        for (size_t i = 0; i < h.size(); i++) h[i] = (int) (i * 7 % 101);
        int *src, *sums;
        ASSERT_EQ(cudaSuccess, cudaMalloc(&src, h.size() * sizeof(int)));
        ASSERT_EQ(cudaSuccess, cudaMalloc(&sums, 32 * sizeof(int)));
        ASSERT_EQ(cudaSuccess, cudaMemcpy(src, h.data(), h.size() * sizeof(int), cudaMemcpyHostToDevice));
        cp_async_pipeline<3><<<1, 64>>>(src, n, sums);
        ASSERT_EQ(cudaSuccess, cudaGetLastError());
        int got[32];
        ASSERT_EQ(cudaSuccess, cudaMemcpy(got, sums, sizeof got, cudaMemcpyDeviceToHost));
        for (int lane = 0; lane < 32; lane++) {
            int want = 0;
            for (unsigned r = 0; r < n; r++) want += h[r * 32 + lane];
            EXPECT_EQ(want, got[lane]) << "lane " << lane;
        }
        cudaFree(src);
        cudaFree(sums);
    }
}

// The host side of 16-CTA clusters: without the opt-in a kernel may not be launched, or asked
// about, with more than 8 CTAs in a cluster; with it, the occupancy query and the launch work.
TEST(ClusterLaunch, SixteenCtaClustersNeedTheNonPortableOptIn) {
    const void *kernel = (const void *) async_pipeline<3>;
    int mismatches = 0, *dm, *dc;
    ASSERT_EQ(cudaSuccess, cudaMalloc(&dm, sizeof(int)));
    ASSERT_EQ(cudaSuccess, cudaMalloc(&dc, 16 * sizeof(int)));
    ASSERT_EQ(cudaSuccess, cudaMemset(dm, 0, sizeof(int)));
    cudaLaunchAttribute attr;
    cudaLaunchConfig_t config = cluster_config(dim3(16), dim3(16, 1, 1), dim3(96), sizeof(AsyncShared<3>), &attr);
    unsigned n = 4;
    void *args[] = {&n, &dm, &dc};
    int clusters = -1;
    EXPECT_EQ(cudaErrorInvalidClusterSize, cudaOccupancyMaxActiveClusters(&clusters, kernel, &config));
    EXPECT_EQ(cudaErrorInvalidClusterSize, cudaLaunchKernelExC(&config, kernel, args));
    EXPECT_EQ(cudaErrorInvalidClusterSize, cudaGetLastError());
    ASSERT_EQ(cudaSuccess, cudaFuncSetAttribute(kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
    ASSERT_EQ(cudaSuccess, cudaOccupancyMaxActiveClusters(&clusters, kernel, &config));
    EXPECT_GE(clusters, 1);
    ASSERT_EQ(cudaSuccess, cudaLaunchKernelExC(&config, kernel, args));
    ASSERT_EQ(cudaSuccess, cudaDeviceSynchronize());
    ASSERT_EQ(cudaSuccess, cudaMemcpy(&mismatches, dm, sizeof(int), cudaMemcpyDeviceToHost));
    EXPECT_EQ(0, mismatches);
    cudaFree(dm);
    cudaFree(dc);
}
