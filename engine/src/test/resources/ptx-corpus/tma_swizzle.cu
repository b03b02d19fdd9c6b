// A TMA tile load into a 1024-byte-aligned shared tile, dumped as it lands: the test gives the
// tensor map a swizzle mode (none, 32B, 64B, 128B) and checks where each element went.
#include <cuda.h>
#include <cstdint>

extern "C" __global__ void tma_swizzle(const __grid_constant__ CUtensorMap tmap, int *out, int c0, int c1, int bytes)
{
    __shared__ alignas(1024) int tile[256];
    __shared__ alignas(8) uint64_t full;
    unsigned bar = static_cast<unsigned>(__cvta_generic_to_shared(&full));
    unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(&tile[0]));
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(bar));
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(bar), "r"(bytes) : "memory");
        asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                     " [%0], [%1, {%2, %3}], [%4];"
                     :: "r"(dst), "l"(&tmap), "r"(c0), "r"(c1), "r"(bar) : "memory");
    }
    __syncthreads();
    asm volatile("{\n"
                 " .reg .pred done;\n"
                 "WAIT:\n"
                 " mbarrier.try_wait.parity.shared::cta.b64 done, [%0], 0;\n"
                 " @!done bra WAIT;\n"
                 "}" :: "r"(bar) : "memory");
    out[threadIdx.x] = tile[threadIdx.x];
}
