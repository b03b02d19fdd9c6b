// wgmma-pipeline: C (128x64, f32) = A (128x384, f16) * B (384x64, f16) by a warp-specialized CTA of
// three warpgroups, as Hopper GEMMs are built. Warpgroup 0 is the producer: one thread streams the
// six 64-wide k-tiles of A and B into a 3-stage ring of shared-memory buffers with TMA (128-byte
// swizzle), each stage guarded by a `full` mbarrier (transaction bytes) and an `empty` one.
// Warpgroups 1 and 2 are consumers: each multiplies its 64 rows of A by B with wgmma.mma_async,
// keeps one wgmma-group in flight, and hands a stage back once the group that read it completed.
#include <cuda.h>
#include <cstdint>

constexpr int M = 128, N = 64, K = 384, BK = 64, STAGES = 3, KTILES = K / BK;
constexpr int A_BYTES = M * BK * 2, B_BYTES = N * BK * 2, STAGE_BYTES = A_BYTES + B_BYTES;

__device__ uint64_t sw128_desc(unsigned addr) {
    // K-major, 128-byte swizzle: start >> 4, LBO 1 (unused), SBO 1024 (one 8-row atom), mode 1.
    return (uint64_t)((addr >> 4) & 0x3FFF) | ((uint64_t)1 << 16) | ((uint64_t)(1024 >> 4) << 32) | ((uint64_t)1 << 62);
}

__device__ void wait_parity(unsigned bar, unsigned parity) {
    asm volatile("{\n"
                 " .reg .pred done;\n"
                 "WAIT:\n"
                 " mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n"
                 " @!done bra WAIT;\n"
                 "}" :: "r"(bar), "r"(parity) : "memory");
}

#define D8(i) "+f"(d[i]), "+f"(d[i + 1]), "+f"(d[i + 2]), "+f"(d[i + 3]), "+f"(d[i + 4]), "+f"(d[i + 5]), "+f"(d[i + 6]), "+f"(d[i + 7])

extern "C" __global__ void __launch_bounds__(384) wgmma_pipeline(const __grid_constant__ CUtensorMap mapA,
                                                                 const __grid_constant__ CUtensorMap mapBt, float* C)
{
    extern __shared__ __align__(1024) uint8_t ring[];   // STAGES x (A tile 128x64, Bt tile 64x64)
    __shared__ alignas(8) uint64_t full[STAGES], empty[STAGES];
    int wg = threadIdx.x / 128;
    unsigned base = static_cast<unsigned>(__cvta_generic_to_shared(ring));

    if (threadIdx.x == 0) {
        for (int s = 0; s < STAGES; s++) {
            asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"((unsigned)__cvta_generic_to_shared(&full[s])));
            asm volatile("mbarrier.init.shared::cta.b64 [%0], 2;" :: "r"((unsigned)__cvta_generic_to_shared(&empty[s])));
        }
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    __syncthreads();

    if (wg == 0) {
        // Producer: one thread fills the ring. A fresh barrier counts as having completed the
        // phase before its first, so the first round's waits on `empty` (parity 1) pass at once.
        if (threadIdx.x == 0) {
            for (int kt = 0; kt < KTILES; kt++) {
                int s = kt % STAGES;
                unsigned fb = (unsigned)__cvta_generic_to_shared(&full[s]);
                wait_parity((unsigned)__cvta_generic_to_shared(&empty[s]), ((kt / STAGES) & 1) ^ 1);
                asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(fb), "r"(STAGE_BYTES) : "memory");
                asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
                             :: "r"(base + s * STAGE_BYTES), "l"(&mapA), "r"(kt * BK), "r"(0), "r"(fb) : "memory");
                asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
                             :: "r"(base + s * STAGE_BYTES + A_BYTES), "l"(&mapBt), "r"(kt * BK), "r"(0), "r"(fb) : "memory");
            }
        }
        return;
    }

    // Consumer warpgroup wg (1 or 2): rows 64 * (wg - 1) .. +63 of A and C.
    float d[32];
    for (int i = 0; i < 32; i++) d[i] = 0.f;
    for (int i = 0; i < 32; i++) asm volatile("" : "+f"(d[i]) :: "memory");   // keep the zeros before the fence
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
#pragma unroll
    for (int kt = 0; kt < KTILES; kt++) {
        int s = kt % STAGES;
        wait_parity((unsigned)__cvta_generic_to_shared(&full[s]), (kt / STAGES) & 1);
        unsigned a = base + s * STAGE_BYTES + (wg - 1) * 64 * 128, b = base + s * STAGE_BYTES + A_BYTES;
#pragma unroll
        for (int k = 0; k < BK / 16; k++) {
            uint64_t da = sw128_desc(a + 32 * k), db = sw128_desc(b + 32 * k);
            asm volatile("{\n"
                         " .reg .pred p;\n"
                         " setp.ne.b32 p, %34, 0;\n"
                         " wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 "
                         "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
                         "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, "
                         "%32, %33, p, 1, 1, 0, 0;\n"
                         "}"
                         : D8(0), D8(8), D8(16), D8(24)
                         : "l"(da), "l"(db), "r"(1));
        }
        asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
        // At most one group in flight: the previous k-tile's group has completed, so its stage
        // may be refilled; one thread of the warpgroup says so.
        asm volatile("wgmma.wait_group.sync.aligned 1;" ::: "memory");
        if (kt > 0 && threadIdx.x % 128 == 0) {
            asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];"
                         :: "r"((unsigned)__cvta_generic_to_shared(&empty[(kt - 1) % STAGES])) : "memory");
        }
    }
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");

    // Accumulator fragment: warp w of the warpgroup, lane l, element i is row 16w + l/4 (+8 when
    // i%4 >= 2), column 8*(i/4) + 2*(l%4) + i%2 of this warpgroup's 64x64 tile.
    int w = (threadIdx.x / 32) % 4, l = threadIdx.x % 32;
    for (int i = 0; i < 32; i++) {
        int row = 64 * (wg - 1) + 16 * w + l / 4 + ((i % 4) >= 2 ? 8 : 0);
        int col = 8 * (i / 4) + 2 * (l % 4) + (i % 2);
        C[row * N + col] = d[i];
    }
}
