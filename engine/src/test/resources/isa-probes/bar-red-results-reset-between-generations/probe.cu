// bar-red-results-reset-between-generations
// 9.7.13.1: when a barrier completes it is reinitialized so that it can be immediately reused; each bar.red generation reduces its own predicates.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    unsigned p1, a, p2;
    asm volatile("{\n\t.reg .pred c, q;\n\tsetp.lt.u32 c, %3, 10;\n\tbar.red.popc.u32 %0, 3, c;\n\t"
                 "setp.lt.u32 c, %3, 64;\n\tbar.red.and.pred q, 3, c;\n\tselp.u32 %1, 1, 0, q;\n\t"
                 "setp.ge.u32 c, %3, 60;\n\tbar.red.popc.u32 %2, 3, c;\n\t}" : "=r"(p1), "=r"(a), "=r"(p2) : "r"(TID) : "memory");
    if (TID == 0) { out[0] = p1; out[1] = a; out[2] = p2; }
}
