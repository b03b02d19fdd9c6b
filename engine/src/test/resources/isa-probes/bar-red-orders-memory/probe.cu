// bar-red-orders-memory
// 9.7.13.1: bar.red, like bar.sync, makes prior memory accesses performed relative to all participating threads.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    __shared__ int s[64];
    s[TID] = TID + 1;
    unsigned c;
    asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.u32 p, %1, 0;\n\tbar.red.popc.u32 %0, 0, p;\n\t}" : "=r"(c) : "r"(1u) : "memory");
    out[TID] = s[63 - TID] + (int)c;
}
