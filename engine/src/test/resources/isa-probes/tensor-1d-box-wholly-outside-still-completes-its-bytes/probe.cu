// tensor-1d-box-wholly-outside-still-completes-its-bytes
// 9.7.9.25.5 / 9.7.13.15.5.2: a box wholly outside the tensor lands as zeros and still performs complete-tx of the box's 32 bytes.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

#include <cuda.h>

extern "C" __global__ void probe(const __grid_constant__ CUtensorMap tmap, int *out)
{
    __shared__ __align__(128) int tile[8];
    __shared__ u64 bar;
    if (TID != 0) return;
    unsigned b = sa(&bar);
    mb_init(b, 1);
    mb_arrive_tx(b, 32);
    asm volatile("cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2}], [%3];"
                 :: "r"(sa(tile)), "l"(&tmap), "r"(100), "r"(b) : "memory");
    mb_wait_par(b, 0);
    for (int i = 0; i < 8; i++) { int v; asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v) : "r"(sa(&tile[i])) : "memory"); out[i] = v; }
}
