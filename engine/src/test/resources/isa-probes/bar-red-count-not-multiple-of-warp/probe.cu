// bar-red-count-not-multiple-of-warp
// 9.7.13.1: when specifying a thread count, the value must be a multiple of the warp size (bar.red).
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    unsigned n = blockDim.x - 24;
    unsigned c;
    asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.u32 p, %2, 0;\n\tbar.red.popc.u32 %0, 1, %1, p;\n\t}" : "=r"(c) : "r"(n), "r"(1u) : "memory");
    out[TID] = c;
}
