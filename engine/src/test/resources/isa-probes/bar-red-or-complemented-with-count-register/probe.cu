// bar-red-or-complemented-with-count-register
// 9.7.13.1: bar.red.or with {!}c and a register thread count.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out, unsigned n)
{
    unsigned r;
    asm volatile("{\n\t.reg .pred c, d;\n\tsetp.lt.u32 c, %1, 64;\n\tbar.red.or.pred d, 2, %2, !c;\n\tselp.u32 %0, 1, 0, d;\n\t}" : "=r"(r) : "r"(TID), "r"(n) : "memory");
    out[TID] = r;
}
