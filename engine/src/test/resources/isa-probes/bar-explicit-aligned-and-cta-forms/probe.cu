// bar-explicit-aligned-and-cta-forms
// 9.7.13.1: barrier.cta.sync.aligned, barrier.cta.arrive.aligned, barrier.cta.red.popc.aligned.u32 and bar.cta.red.or.pred are the same instructions.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    unsigned r, q;
    asm volatile("barrier.cta.sync.aligned 0;" ::: "memory");
    if (WARP == 0) asm volatile("barrier.cta.arrive.aligned 1, 64;" ::: "memory");
    else asm volatile("barrier.cta.sync.aligned 1, 64;" ::: "memory");
    asm volatile("{\n\t.reg .pred c;\n\tsetp.lt.u32 c, %1, 10;\n\tbarrier.cta.red.popc.aligned.u32 %0, 2, c;\n\t}" : "=r"(r) : "r"(TID) : "memory");
    asm volatile("{\n\t.reg .pred c, d;\n\tsetp.eq.u32 c, %1, 7;\n\tbar.cta.red.or.pred d, 3, c;\n\tselp.u32 %0, 1, 0, d;\n\t}" : "=r"(q) : "r"(TID) : "memory");
    out[TID] = r * 10 + q;
}
