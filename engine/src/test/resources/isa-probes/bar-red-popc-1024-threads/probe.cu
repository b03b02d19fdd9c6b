// bar-red-popc-1024-threads
// 9.7.13.1: .popc counts every participating thread of a 1024-thread CTA.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    unsigned r;
    asm volatile("{\n\t.reg .pred c;\n\tsetp.ne.u32 c, %1, 5000;\n\tbar.red.popc.u32 %0, 0, c;\n\t}" : "=r"(r) : "r"(TID) : "memory");
    if (TID % 32 == 0) out[TID / 32] = r;
}
