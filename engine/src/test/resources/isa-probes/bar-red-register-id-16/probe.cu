// bar-red-register-id-16
// 9.7.13.1: operand a names a barrier 0 through 15, as an immediate or a register (bar.red with a register id).
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    unsigned id = blockDim.x >> 2;
    unsigned r;
    asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.u32 p, %2, 0;\n\tbar.red.popc.u32 %0, %1, p;\n\t}" : "=r"(r) : "r"(id), "r"(TID) : "memory");
    out[TID] = r;
}
