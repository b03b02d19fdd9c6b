// barrier-red-non-aligned-divergent-lanes
// 9.7.13.1: without .aligned, lanes may reach barrier.red through different instructions; the predicates of all participants combine.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    unsigned r;
    if (LANE & 1) asm volatile("{\n\t.reg .pred c;\n\tsetp.lt.u32 c, %1, 40;\n\tbarrier.red.popc.u32 %0, 1, c;\n\t}" : "=r"(r) : "r"(TID) : "memory");
    else asm volatile("{\n\t.reg .pred c;\n\tsetp.lt.u32 c, %1, 40;\n\tbarrier.cta.red.popc.u32 %0, 1, c;\n\t}" : "=r"(r) : "r"(TID) : "memory");
    out[TID] = r;
}
