// bar-red-mixed-with-sync
// 9.7.13.1: barrier.red should not be intermixed with barrier.sync or barrier.arrive using the same active barrier.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    unsigned r = 0;
    if (WARP == 0) asm volatile("{\n\t.reg .pred c;\n\tsetp.ne.u32 c, %1, 0;\n\tbar.red.popc.u32 %0, 1, c;\n\t}" : "=r"(r) : "r"(TID) : "memory");
    else asm volatile("bar.sync 1;" ::: "memory");
    out[TID] = r;
}
