// bar-red-popc-partial-last-warp
// 9.7.13.1: .popc is the number of threads with a True predicate (40 threads, the last warp partial).
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    unsigned a, b;
    asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.u32 p, %1, 0;\n\tbar.red.popc.u32 %0, 0, p;\n\t}" : "=r"(a) : "r"(1u) : "memory");
    asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.u32 p, %1, 0;\n\tbar.red.popc.u32 %0, 0, p;\n\t}" : "=r"(b) : "r"(TID & 1u) : "memory");
    out[TID] = a;
    out[40 + TID] = b;
}
