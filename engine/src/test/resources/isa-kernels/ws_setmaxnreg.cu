// A warp-specialized kernel that rebalances registers with setmaxnreg, as CUTLASS's Hopper
// kernels do: __launch_bounds__(384, 1) gives every thread 168 registers at entry (65536 / 384,
// rounded down to a multiple of 8). Warpgroup 0, the producer, gives registers back
// (setmaxnreg.dec 40) and fills a buffer; warpgroups 1 and 2, the consumers, ask for more
// (setmaxnreg.inc 232), which blocks until the producer's registers are in the CTA pool:
// 128 * (168 - 40) = 2 * 128 * (232 - 168). A CTA barrier then hands the buffer over.
#include <cstdint>

constexpr int N = 64;

__global__ void __launch_bounds__(384, 1) ws_setmaxnreg(int* out) {
    __shared__ int buf[N];
    const int wg = threadIdx.x / 128;
    if (wg == 0) {
        asm volatile("setmaxnreg.dec.sync.aligned.u32 40;" ::: "memory");
        if (threadIdx.x < N) buf[threadIdx.x] = threadIdx.x + 1;
    } else {
        asm volatile("setmaxnreg.inc.sync.aligned.u32 232;" ::: "memory");
    }
    __syncthreads();
    if (wg != 0) {
        int sum = 0;
        for (int i = 0; i < N; ++i) sum += buf[i];
        atomicAdd(&out[(threadIdx.x - 128) / 4], sum);  // 256 consumers, 64 outputs: four sums each
    }
}
