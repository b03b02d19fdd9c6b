// bar-red-with-count-two-groups
// 9.7.13.1: with b, the reduction combines the participating threads of that barrier.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    unsigned r;
    if (WARP < 2) asm volatile("{\n\t.reg .pred c;\n\tsetp.lt.u32 c, %1, 40;\n\tbar.red.popc.u32 %0, 1, 64, c;\n\t}" : "=r"(r) : "r"(TID) : "memory");
    else asm volatile("{\n\t.reg .pred c;\n\tsetp.lt.u32 c, %1, 40;\n\tbar.red.popc.u32 %0, 2, 64, c;\n\t}" : "=r"(r) : "r"(TID) : "memory");
    out[TID] = r;
}
