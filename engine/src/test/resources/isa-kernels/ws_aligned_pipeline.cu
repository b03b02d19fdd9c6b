// A warp-specialized pipeline whose consumer warp reconverges only through warp-synchronous
// .sync.aligned instructions (wgmma.fence / commit_group / wait_group), as a real GEMM consumer
// does around wgmma.mma_async. Warp 0 produces a 32-int stage ITERS times; warp 1 waits on
// `full` with try_wait (which may return false early for some lanes and not others), fences,
// reads the stage, commits and waits its (empty) wgmma group, and lane 0 alone releases the stage
// on `empty`. Correct: after wgmma.wait_group every lane of the warp has read the stage, because
// each .sync.aligned instruction makes a lane wait for all lanes of its warp (PTX ISA 9.7.15.7).
#include <cstdint>

constexpr int ITERS = 6;

__device__ __forceinline__ uint32_t smem(const void* p) {
    return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ void mbar_init(uint64_t* b, uint32_t count) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem(b)), "r"(count) : "memory");
}

__device__ __forceinline__ void mbar_arrive(uint64_t* b) {
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(smem(b)) : "memory");
}

__device__ __forceinline__ void mbar_wait(uint64_t* b, uint32_t parity) {
    uint32_t done = 0;
    while (!done) {
        asm volatile("{\n .reg .pred p;\n mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n selp.u32 %0, 1, 0, p;\n}"
                     : "=r"(done) : "r"(smem(b)), "r"(parity) : "memory");
    }
}

__global__ void __launch_bounds__(64) ws_aligned_pipeline(int* out) {
    __shared__ alignas(8) uint64_t full;
    __shared__ alignas(8) uint64_t empty;
    __shared__ int stage[32];
    const int warp = threadIdx.x / 32;
    const int lane = threadIdx.x % 32;
    if (threadIdx.x == 0) {
        mbar_init(&full, 1);
        mbar_init(&empty, 1);
    }
    __syncthreads();
    if (warp == 0) {
        for (int k = 0; k < ITERS; ++k) {
            if (k > 0) mbar_wait(&empty, (k - 1) & 1);
            stage[lane] = 100 * k + lane;
            __syncwarp();
            if (lane == 0) mbar_arrive(&full);
        }
    } else {
        int sum = 0;
        for (int k = 0; k < ITERS; ++k) {
            mbar_wait(&full, k & 1);
            asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
            sum += stage[lane];
            asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
            asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
            if (lane == 0) mbar_arrive(&empty);
        }
        out[lane] = sum;
    }
}
