// bar-red-aligned-divergent-lanes
// 9.7.13.1: bar.red is barrier.red.aligned; lanes of one warp reaching it through two different instructions is undefined.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    unsigned r, one = 1;
    if (LANE < 16) asm volatile("{\n\t.reg .pred q;\n\tsetp.ne.u32 q, %1, 0;\n\tbar.red.popc.u32 %0, 0, q;\n\t}" : "=r"(r) : "r"(one) : "memory");
    else asm volatile("{\n\t.reg .pred q;\n\tsetp.ne.u32 q, %1, 0;\n\tbar.red.popc.u32 %0, 0, q;\n\t}" : "=r"(r) : "r"(one) : "memory");
    out[TID] = r;
}
