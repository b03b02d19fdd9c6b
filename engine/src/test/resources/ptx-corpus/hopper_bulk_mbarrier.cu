// Corpus: a Hopper-style (sm_90) tile loop written the way CUTLASS/CuTe emit it, with
// inline PTX: mbarrier.init + fence.mbarrier_init + cluster barrier prologue, an elected
// producer lane (elect.sync) that posts arrive.expect_tx and a TMA-free bulk copy
// (cp.async.bulk ... mbarrier::complete_tx::bytes), consumers spinning on
// mbarrier.try_wait.parity inside a `{ }` scope with local labels, then a bulk store back
// to global (cp.async.bulk.global.shared::cta.bulk_group + commit/wait_group).
#include <cstdint>

#define THREADS 128
#define TILE_INTS 128
#define TILE_BYTES (TILE_INTS * 4)

__device__ __forceinline__ uint32_t smem_addr(const void *p)
{
    return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ bool elect_one()
{
    uint32_t pred = 0;
    asm volatile(
        "{\n"
        "  .reg .b32 %%rx;\n"
        "  .reg .pred %%px;\n"
        "  elect.sync %%rx|%%px, %1;\n"
        "  @%%px mov.s32 %0, 1;\n"
        "}\n"
        : "+r"(pred)
        : "r"(0xffffffffu));
    return pred != 0;
}

__device__ __forceinline__ void mbar_init(uint64_t *bar, uint32_t count)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(smem_addr(bar)), "r"(count));
}

__device__ __forceinline__ void mbar_arrive_expect_tx(uint64_t *bar, uint32_t bytes)
{
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;"
                 :: "r"(smem_addr(bar)), "r"(bytes) : "memory");
}

__device__ __forceinline__ void mbar_wait_parity(uint64_t *bar, uint32_t parity)
{
    asm volatile(
        "{\n"
        "  .reg .pred P1;\n"
        "LAB_WAIT:\n"
        "  mbarrier.try_wait.parity.shared::cta.b64 P1, [%0], %1;\n"
        "  @P1 bra DONE;\n"
        "  bra LAB_WAIT;\n"
        "DONE:\n"
        "}\n"
        :: "r"(smem_addr(bar)), "r"(parity) : "memory");
}

__device__ __forceinline__ void bulk_load(void *dst_smem, const void *src_gmem, uint32_t bytes,
                                          uint64_t *bar)
{
    asm volatile(
        "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
        :: "r"(smem_addr(dst_smem)), "l"(src_gmem), "r"(bytes), "r"(smem_addr(bar))
        : "memory");
}

__device__ __forceinline__ void bulk_store(void *dst_gmem, const void *src_smem, uint32_t bytes)
{
    asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;"
                 :: "l"(dst_gmem), "r"(smem_addr(src_smem)), "r"(bytes) : "memory");
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
}

extern "C" __global__ void __cluster_dims__(1, 1, 1) __launch_bounds__(THREADS)
tile_scale(const int *in, int *out, int tiles, int factor)
{
    __shared__ alignas(128) int in_tile[TILE_INTS];
    __shared__ alignas(128) int out_tile[TILE_INTS];
    __shared__ uint64_t full;                           // the mbarrier

    unsigned tid = threadIdx.x;
    unsigned warp = tid / 32;

    // Prologue: one thread initialises the mbarrier (1 arrival + tx bytes per phase),
    // makes the init visible to the async proxy and the cluster, then a cluster barrier.
    if (tid == 0) {
        mbar_init(&full, 1);
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    asm volatile("barrier.cluster.arrive.release.aligned;\n\t"
                 "barrier.cluster.wait.acquire.aligned;" ::: "memory");

    for (int t = 0; t < tiles; ++t) {
        // Producer: one elected lane of warp 0 posts the byte count and starts the copy.
        if (warp == 0 && elect_one()) {
            mbar_arrive_expect_tx(&full, TILE_BYTES);
            bulk_load(in_tile, in + (size_t)t * TILE_INTS, TILE_BYTES, &full);
        }
        // Everyone: wait for phase t to complete (parity alternates 0,1,0,1...).
        mbar_wait_parity(&full, t & 1);

        out_tile[tid] = in_tile[tid] * factor + t;

        // Make the generic-proxy writes of out_tile visible to the bulk copy engine,
        // and make sure every thread is done with in_tile before it is refilled.
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
        __syncthreads();

        if (tid == 0) {
            bulk_store(out + (size_t)t * TILE_INTS, out_tile, TILE_BYTES);
            asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");  // out_tile reusable
        }
        __syncthreads();
    }

    if (tid == 0)
        asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");       // stores complete
}
