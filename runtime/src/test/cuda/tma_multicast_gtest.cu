// A googletest suite as a GEMM library tests its mainloop pipeline: a warp-specialized kernel
// (a producer warpgroup with setmaxnreg.dec, two consumer warpgroups with setmaxnreg.inc, 384
// threads with __launch_bounds__(384, 1) as CUTLASS's cooperative kernels) whose producer
// multicasts each A tile to every CTA of its cluster with cp.async.bulk.tensor ... .multicast::cluster
// (each CTA loads 1/CX of the rows) and loads its own B tile, into a ring of STAGES slots guarded
// by full (transaction-count) and empty (released by every consumer of the cluster, remotely)
// mbarriers. Host side as such suites write it: tensor maps from cuTensorMapEncodeTiled obtained
// through cudaGetDriverEntryPointByVersion, cudaFuncSetAttribute for more than 48 KiB of dynamic
// shared memory, cudaOccupancyMaxActiveClusters, cudaLaunchKernelEx with a cluster dimension,
// events around the launch, CHECK_LAST after it; parameterized over cluster size and stages.
#include <cstdint>
#include <cstdio>
#include <vector>
#include <cuda.h>
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#define CUDA_CHECK(x) ASSERT_EQ(cudaSuccess, (x)) << #x
#define CHECK_LAST() do { ASSERT_EQ(cudaSuccess, cudaDeviceSynchronize()); ASSERT_EQ(cudaSuccess, cudaGetLastError()); } while (0)

constexpr int TILE = 32;                       // 32x32 floats per tile
constexpr int TILE_BYTES = TILE * TILE * 4;
constexpr int PRODUCER_REGS = 40, CONSUMER_REGS = 232;

__device__ __forceinline__ unsigned smem_addr(const void *p) { return static_cast<unsigned>(__cvta_generic_to_shared(p)); }

__device__ __forceinline__ void wait_parity(unsigned bar, unsigned parity) {
    asm volatile("{\n .reg .pred p;\nLAB_WAIT:\n mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 p, [%0], %1;\n @!p bra LAB_WAIT;\n}"
                 :: "r"(bar), "r"(parity) : "memory");
}

// setmaxnreg exists only for sm_90a; nvcc 13 also embeds plain compute_90 PTX, built without it (as CUTLASS guards it).
template <int N> __device__ __forceinline__ void registers_up() {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;" :: "n"(N));
#endif
}
template <int N> __device__ __forceinline__ void registers_down() {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;" :: "n"(N));
#endif
}

__device__ __forceinline__ void cluster_sync() {
    asm volatile("barrier.cluster.arrive.release.aligned;\nbarrier.cluster.wait.acquire.aligned;" ::: "memory");
}

// Dynamic shared memory: A and B rings, then the barriers.
template <int STAGES> struct Smem {
    float a[STAGES][TILE][TILE];
    float b[STAGES][TILE][TILE];
    alignas(8) uint64_t full[STAGES];
    alignas(8) uint64_t empty[STAGES];
};

template <int STAGES>
__global__ void __launch_bounds__(384, 1) ws_multicast_mainloop(const __grid_constant__ CUtensorMap tmA,
                                                                const __grid_constant__ CUtensorMap tmB, float *out, int iters) {
    extern __shared__ __align__(128) unsigned char raw[];
    Smem<STAGES> &s = *reinterpret_cast<Smem<STAGES> *>(raw);
    unsigned rank, cx;
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
    asm volatile("mov.u32 %0, %%cluster_nctarank;" : "=r"(cx));
    const int warpgroup = threadIdx.x / 128;
    if (threadIdx.x == 0) {
        for (int i = 0; i < STAGES; i++) {
            asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(smem_addr(&s.full[i])));
            asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(smem_addr(&s.empty[i])), "r"(2 * cx));
        }
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    cluster_sync();  // every CTA's barriers exist before any peer arrives on them or multicasts to them
    const int cta = blockIdx.x;
    if (warpgroup == 0) {
        registers_down<PRODUCER_REGS>();
        if (threadIdx.x == 0) {
            const int rows = TILE / cx;
            const unsigned short mask = (unsigned short) ((1u << cx) - 1);
            for (int k = 0; k < iters; k++) {
                int st = k % STAGES;
                wait_parity(smem_addr(&s.empty[st]), ((k / STAGES) & 1) ^ 1);
                unsigned full = smem_addr(&s.full[st]);
                asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(full), "r"(2 * TILE_BYTES) : "memory");
                asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster"
                             " [%0], [%1, {%2, %3}], [%4], %5;"
                             :: "r"(smem_addr(&s.a[st][rank * rows][0])), "l"(&tmA), "r"(0), "r"(k * TILE + (int) rank * rows),
                                "r"(full), "h"(mask) : "memory");
                asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
                             :: "r"(smem_addr(&s.b[st][0][0])), "l"(&tmB), "r"(0), "r"((cta * iters + k) * TILE), "r"(full)
                             : "memory");
            }
        }
        __syncwarp();
    } else {
        registers_up<CONSUMER_REGS>();
        const int c = warpgroup - 1, t = threadIdx.x % 128, row = c * 16 + t / 8, col = (t % 8) * 4;
        float acc = 0;
        for (int k = 0; k < iters; k++) {
            int st = k % STAGES;
            wait_parity(smem_addr(&s.full[st]), (k / STAGES) & 1);
            for (int j = 0; j < 4; j++) acc += s.a[st][row][col + j] * s.b[st][row][col + j];
            asm volatile("bar.sync %0, 128;" :: "r"(1 + c) : "memory");  // the whole consumer warpgroup has read the slot
            if (t == 0) {
                for (unsigned peer = 0; peer < cx; peer++) {  // every producer that writes this slot may refill it
                    unsigned remote;
                    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(remote) : "r"(smem_addr(&s.empty[st])), "r"(peer));
                    asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];" :: "r"(remote) : "memory");
                }
            }
        }
        out[cta * 256 + c * 128 + t] = acc;
    }
    cluster_sync();  // no CTA leaves while a peer may still multicast into it or arrive on its barriers
}

typedef CUresult (*EncodeTiled)(CUtensorMap *, CUtensorMapDataType, cuuint32_t, void *, const cuuint64_t *, const cuuint64_t *,
                                const cuuint32_t *, const cuuint32_t *, CUtensorMapInterleave, CUtensorMapSwizzle,
                                CUtensorMapL2promotion, CUtensorMapFloatOOBfill);

struct Params { int cluster; int stages; int iters; };

class MulticastPipeline : public ::testing::TestWithParam<Params> {
protected:
    EncodeTiled encode = nullptr;
    void SetUp() override {
        cudaDeviceProp prop;
        CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
        if (prop.major < 9) GTEST_SKIP() << "needs sm_90";
        ASSERT_EQ(1, prop.clusterLaunch);
        cudaDriverEntryPointQueryResult q;
        void *fn = nullptr;
        CUDA_CHECK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault, &q));
        ASSERT_EQ(cudaDriverEntryPointSuccess, q);
        encode = reinterpret_cast<EncodeTiled>(fn);
    }

    void map2d(CUtensorMap *m, float *base, uint64_t rows, uint32_t boxRows) {
        cuuint64_t dims[2] = {TILE, rows};
        cuuint64_t strides[1] = {TILE * sizeof(float)};
        cuuint32_t box[2] = {TILE, boxRows};
        cuuint32_t estr[2] = {1, 1};
        ASSERT_EQ(CUDA_SUCCESS, encode(m, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, base, dims, strides, box, estr,
                                       CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                                       CU_TENSOR_MAP_L2_PROMOTION_L2_128B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
    }

    template <int STAGES> void run(const Params &p) {
        const int ctas = 2 * p.cluster, iters = p.iters;
        std::vector<float> A((size_t) iters * TILE * TILE), B((size_t) ctas * iters * TILE * TILE);
        for (size_t i = 0; i < A.size(); i++) A[i] = (float) ((i * 7) % 13) - 6;
        for (size_t i = 0; i < B.size(); i++) B[i] = (float) ((i * 5) % 11) - 5;
        float *dA, *dB, *dOut;
        CUDA_CHECK(cudaMalloc(&dA, A.size() * 4));
        CUDA_CHECK(cudaMalloc(&dB, B.size() * 4));
        CUDA_CHECK(cudaMalloc(&dOut, ctas * 256 * 4));
        CUDA_CHECK(cudaMemcpy(dA, A.data(), A.size() * 4, cudaMemcpyHostToDevice));
        CUDA_CHECK(cudaMemcpy(dB, B.data(), B.size() * 4, cudaMemcpyHostToDevice));
        CUDA_CHECK(cudaMemset(dOut, 0xff, ctas * 256 * 4));
        CUtensorMap tmA, tmB;
        map2d(&tmA, dA, (uint64_t) iters * TILE, TILE / p.cluster);
        map2d(&tmB, dB, (uint64_t) ctas * iters * TILE, TILE);

        auto kernel = ws_multicast_mainloop<STAGES>;
        const int smem = (int) sizeof(Smem<STAGES>);
        cudaFuncAttributes before;
        CUDA_CHECK(cudaFuncGetAttributes(&before, kernel));
        if (before.maxDynamicSharedSizeBytes < smem) {
            // Before the opt-in (the first test of this instantiation) a launch asking for this much is refused.
            cudaLaunchConfig_t probe = {};
            probe.gridDim = dim3(ctas);
            probe.blockDim = dim3(384);
            probe.dynamicSmemBytes = smem;
            EXPECT_EQ(cudaErrorInvalidValue, cudaLaunchKernelEx(&probe, kernel, tmA, tmB, dOut, iters));
            EXPECT_EQ(cudaErrorInvalidValue, cudaGetLastError());
        }
        CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
        cudaFuncAttributes fa;
        CUDA_CHECK(cudaFuncGetAttributes(&fa, kernel));
        EXPECT_EQ(384, fa.maxThreadsPerBlock);
        EXPECT_GE(fa.maxDynamicSharedSizeBytes, smem);

        cudaLaunchAttribute attr[1];
        attr[0].id = cudaLaunchAttributeClusterDimension;
        attr[0].val.clusterDim.x = p.cluster;
        attr[0].val.clusterDim.y = 1;
        attr[0].val.clusterDim.z = 1;
        cudaLaunchConfig_t config = {};
        config.gridDim = dim3(ctas);
        config.blockDim = dim3(384);
        config.dynamicSmemBytes = smem;
        config.attrs = attr;
        config.numAttrs = 1;
        int clusters = 0;
        CUDA_CHECK(cudaOccupancyMaxActiveClusters(&clusters, kernel, &config));
        EXPECT_GT(clusters, 0);

        cudaStream_t stream;
        CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
        config.stream = stream;
        cudaEvent_t start, stop;
        CUDA_CHECK(cudaEventCreate(&start));
        CUDA_CHECK(cudaEventCreate(&stop));
        CUDA_CHECK(cudaEventRecord(start, stream));
        CUDA_CHECK(cudaLaunchKernelEx(&config, kernel, tmA, tmB, dOut, iters));
        CUDA_CHECK(cudaEventRecord(stop, stream));
        CUDA_CHECK(cudaEventSynchronize(stop));
        float ms = 0;
        CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
        EXPECT_GT(ms, 0.0f);
        CHECK_LAST();

        std::vector<float> out(ctas * 256);
        CUDA_CHECK(cudaMemcpy(out.data(), dOut, out.size() * 4, cudaMemcpyDeviceToHost));
        for (int c = 0; c < ctas; c++) {
            for (int t = 0; t < 256; t++) {
                float ref = 0;
                int row = (t / 128) * 16 + (t % 128) / 8, col = (t % 8) * 4;
                for (int k = 0; k < iters; k++)
                    for (int j = 0; j < 4; j++)
                        ref += A[((size_t) k * TILE + row) * TILE + col + j] * B[(((size_t) c * iters + k) * TILE + row) * TILE + col + j];
                ASSERT_EQ(ref, out[c * 256 + t]) << "CTA " << c << " consumer thread " << t;
            }
        }
        CUDA_CHECK(cudaEventDestroy(start));
        CUDA_CHECK(cudaEventDestroy(stop));
        CUDA_CHECK(cudaStreamDestroy(stream));
        CUDA_CHECK(cudaFree(dA));
        CUDA_CHECK(cudaFree(dB));
        CUDA_CHECK(cudaFree(dOut));
    }
};

TEST_P(MulticastPipeline, MatchesHostReference) {
    const Params p = GetParam();
    if (p.stages == 2) run<2>(p);
    else run<7>(p);
}

INSTANTIATE_TEST_SUITE_P(Pipelines, MulticastPipeline,
                         ::testing::Values(Params{1, 2, 5}, Params{2, 2, 5}, Params{4, 2, 9}, Params{2, 7, 9}, Params{4, 7, 3}),
                         [](const ::testing::TestParamInfo<Params> &i) {
                             return "Cluster" + std::to_string(i.param.cluster) + "_Stage" + std::to_string(i.param.stages) + "_Iters"
                                    + std::to_string(i.param.iters);
                         });

// The deprecated entry point lookup still answers, and an unknown symbol is reported as such.
TEST(DriverEntryPoints, DeprecatedLookupAndUnknownSymbol) {
    void *fn = nullptr;
    cudaDriverEntryPointQueryResult q;
    CUDA_CHECK(cudaGetDriverEntryPoint("cuTensorMapEncodeTiled", &fn, cudaEnableDefault, &q));
    EXPECT_EQ(cudaDriverEntryPointSuccess, q);
    EXPECT_NE(nullptr, fn);
    fn = reinterpret_cast<void *>(1);
    CUDA_CHECK(cudaGetDriverEntryPointByVersion("cuNoSuchFunction", &fn, 12000, cudaEnableDefault, &q));
    EXPECT_EQ(cudaDriverEntryPointSymbolNotFound, q);
    EXPECT_EQ(nullptr, fn);
    // Asked for by a CUDA version before the symbol existed (tensor maps came with 12.0).
    fn = reinterpret_cast<void *>(1);
    CUDA_CHECK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 11080, cudaEnableDefault, &q));
    EXPECT_EQ(cudaDriverEntryPointVersionNotSufficent, q);
    EXPECT_EQ(nullptr, fn);
    // A version above the driver's is an invalid value.
    int driver = 0;
    CUDA_CHECK(cudaDriverGetVersion(&driver));
    EXPECT_EQ(cudaErrorInvalidValue, cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, driver + 10, cudaEnableDefault, &q));
    EXPECT_EQ(cudaErrorInvalidValue, cudaGetLastError());
}
