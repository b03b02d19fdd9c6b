// bar-red-and-with-exited-lanes
// 9.7.13.1: .and over the non-exited participants only.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    if (TID < 8) return;
    unsigned r;
    asm volatile("{\n\t.reg .pred c, d;\n\tsetp.ge.u32 c, %1, 8;\n\tbar.red.and.pred d, 0, c;\n\tselp.u32 %0, 1, 0, d;\n\t}" : "=r"(r) : "r"(TID) : "memory");
    out[TID - 8] = r;
}
