// A TMA tile load: one thread issues cp.async.bulk.tensor.2d for an 8x16 box of a 10x20 int
// tensor, at the tensor's lower-right corner, so part of the box lies outside the tensor.
// The mbarrier's transaction count tracks the box's bytes; everyone waits for phase 0.
#include <cuda.h>
#include <cstdint>

#define BOX_X 16
#define BOX_Y 8

extern "C" __global__ void tma_tile_load(const __grid_constant__ CUtensorMap tmap, int *out)
{
    __shared__ alignas(128) int tile[BOX_Y][BOX_X];
    __shared__ alignas(8) uint64_t full;
    unsigned bar = static_cast<unsigned>(__cvta_generic_to_shared(&full));
    unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(&tile[0][0]));

    if (threadIdx.x == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(bar));
        // expect the whole box: TMA counts out-of-bounds elements (filled with zero) too
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;"
                     :: "r"(bar), "r"(BOX_X * BOX_Y * 4) : "memory");
        asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                     " [%0], [%1, {%2, %3}], [%4];"
                     :: "r"(dst), "l"(&tmap), "r"(16), "r"(8), "r"(bar) : "memory");
    }
    __syncthreads();   // the init above is visible before anyone waits
    asm volatile("{\n"
                 " .reg .pred done;\n"
                 "WAIT:\n"
                 " mbarrier.try_wait.parity.shared::cta.b64 done, [%0], 0;\n"
                 " @!done bra WAIT;\n"
                 "}" :: "r"(bar) : "memory");
    out[threadIdx.x] = tile[threadIdx.x / BOX_X][threadIdx.x % BOX_X];
}
