// bar-red-popc-and-or
// 9.7.13.1: .popc counts True predicates, .and all True, .or any True; {!}c complements; all waiting threads get the result.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    unsigned r[6];
    asm volatile("{\n\t.reg .pred c;\n\tsetp.eq.u32 c, %1, 0;\n\tbar.red.popc.u32 %0, 1, c;\n\t}" : "=r"(r[0]) : "r"(TID % 3) : "memory");
    asm volatile("{\n\t.reg .pred c;\n\tsetp.eq.u32 c, %1, 0;\n\tbar.red.popc.u32 %0, 2, !c;\n\t}" : "=r"(r[1]) : "r"(TID % 3) : "memory");
    asm volatile("{\n\t.reg .pred c, d;\n\tsetp.lt.u32 c, %1, 64;\n\tbar.red.and.pred d, 3, c;\n\tselp.u32 %0, 1, 0, d;\n\t}" : "=r"(r[2]) : "r"(TID) : "memory");
    asm volatile("{\n\t.reg .pred c, d;\n\tsetp.ne.u32 c, %1, 5;\n\tbar.red.and.pred d, 4, c;\n\tselp.u32 %0, 1, 0, d;\n\t}" : "=r"(r[3]) : "r"(TID) : "memory");
    asm volatile("{\n\t.reg .pred c, d;\n\tsetp.eq.u32 c, %1, 63;\n\tbar.red.or.pred d, 5, c;\n\tselp.u32 %0, 1, 0, d;\n\t}" : "=r"(r[4]) : "r"(TID) : "memory");
    asm volatile("{\n\t.reg .pred c, d;\n\tsetp.gt.u32 c, %1, 63;\n\tbar.red.or.pred d, 6, c;\n\tselp.u32 %0, 1, 0, d;\n\t}" : "=r"(r[5]) : "r"(TID) : "memory");
    for (int k = 0; k < 6; k++) out[k * 64 + TID] = r[k];
}
