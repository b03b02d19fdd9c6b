// bar-red-exited-threads-do-not-count
// 9.7.13.1: the barrier waits for non-exited threads; exited threads contribute no predicate.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    if (TID >= 48) return;
    unsigned r;
    asm volatile("{\n\t.reg .pred c;\n\tsetp.ne.u32 c, %1, 1000;\n\tbar.red.popc.u32 %0, 0, c;\n\t}" : "=r"(r) : "r"(TID) : "memory");
    out[TID] = r;
}
