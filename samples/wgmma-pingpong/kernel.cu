// wgmma-pingpong: the ping-pong schedule of Hopper GEMMs. C (128x64, f32) = A (128x384, f16) *
// B (384x64, f16) as two 64x64 output tiles, one per consumer warpgroup. Warpgroup 0's thread 0
// produces: it streams the k-tiles of both output tiles, alternating (tile 0 k-tile 0, tile 1
// k-tile 0, tile 0 k-tile 1, ...), through a 3-stage ring of shared-memory stages with TMA
// (128-byte swizzle), each stage guarded by a `full` and an `empty` mbarrier. Consumer
// warpgroups 1 and 2 take turns on the tensor cores, ordered by two named barriers: each issues
// its k-tile's wgmma.mma_async, then hands the turn to the other.
#include <cuda.h>
#include <cstdint>

constexpr int M = 128, N = 64, K = 384, BK = 64, STAGES = 3, KTILES = K / BK, TM = 64;
constexpr int A_BYTES = TM * BK * 2, B_BYTES = N * BK * 2, STAGE_BYTES = A_BYTES + B_BYTES;

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

extern "C" __global__ void __launch_bounds__(384) wgmma_pingpong(const __grid_constant__ CUtensorMap mapA,
                                                                 const __grid_constant__ CUtensorMap mapBt, float* C)
{
    extern __shared__ __align__(1024) uint8_t ring[];   // STAGES x (A tile 64x64, Bt tile 64x64)
    __shared__ alignas(8) uint64_t full[STAGES], empty[STAGES];
    int wg = threadIdx.x / 128;
    unsigned base = static_cast<unsigned>(__cvta_generic_to_shared(ring));

    if (threadIdx.x == 0) {
        for (int s = 0; s < STAGES; s++) {
            asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"((unsigned)__cvta_generic_to_shared(&full[s])));
            asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"((unsigned)__cvta_generic_to_shared(&empty[s])));
        }
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    __syncthreads();

    if (wg == 0) {
        // Producer: one thread fills the ring. A fresh barrier counts as having completed the
        // phase before its first, so the first round's waits on `empty` (parity 1) pass at once.
        if (threadIdx.x == 0) {
            for (int it = 0; it < 2 * KTILES; it++) {
                int s = it % STAGES, tile = it % 2, kt = it / 2;
                unsigned fb = (unsigned)__cvta_generic_to_shared(&full[s]);
                wait_parity((unsigned)__cvta_generic_to_shared(&empty[s]), ((it / STAGES) & 1) ^ 1);
                asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(fb), "r"(STAGE_BYTES) : "memory");
                asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
                             :: "r"(base + s * STAGE_BYTES), "l"(&mapA), "r"(kt * BK), "r"(tile * TM), "r"(fb) : "memory");
                asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
                             :: "r"(base + s * STAGE_BYTES + A_BYTES), "l"(&mapBt), "r"(kt * BK), "r"(0), "r"(fb) : "memory");
            }
        }
        return;
    }

    // Consumer warpgroup wg (1 or 2) computes output tile t = wg - 1: rows 64t..64t+63 of C.
    int t = wg - 1;
    float d[32];
    for (int i = 0; i < 32; i++) d[i] = 0.f;
    for (int i = 0; i < 32; i++) asm volatile("" : "+f"(d[i]) :: "memory");   // keep the zeros before the fence
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
#pragma unroll
    for (int kt = 0; kt < KTILES; kt++) {
        int it = 2 * kt + t, s = it % STAGES;
        wait_parity((unsigned)__cvta_generic_to_shared(&full[s]), (it / STAGES) & 1);
        // Our turn on the tensor cores: warpgroup 1 waits for warpgroup 2 on barrier 1 (not the
        // first time), warpgroup 2 for warpgroup 1 on barrier 2.
        if (t == 1 || kt > 0) asm volatile("bar.sync %0, 256;" :: "r"(1 + t) : "memory");
        unsigned a = base + s * STAGE_BYTES, b = base + s * STAGE_BYTES + A_BYTES;
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
        // Hand the turn over (warpgroup 2 not after its last k-tile: nobody waits for it then).
        if (t == 0 || kt < KTILES - 1) asm volatile("bar.arrive %0, 256;" :: "r"(2 - t) : "memory");
        // This k-tile's multiply done, its stage goes back to the producer.
        asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
        if (threadIdx.x % 128 == 0) {
            asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" :: "r"((unsigned)__cvta_generic_to_shared(&empty[s])) : "memory");
        }
    }
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");

    // Accumulator fragment: warp w of the warpgroup, lane l, element i is row 16w + l/4 (+8 when
    // i%4 >= 2), column 8*(i/4) + 2*(l%4) + i%2 of this warpgroup's 64x64 tile.
    int w = (threadIdx.x / 32) % 4, l = threadIdx.x % 32;
    for (int i = 0; i < 32; i++) {
        int row = TM * t + 16 * w + l / 4 + ((i % 4) >= 2 ? 8 : 0);
        int col = 8 * (i / 4) + 2 * (l % 4) + (i % 2);
        C[row * N + col] = d[i];
    }
}
