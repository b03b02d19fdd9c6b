// elect-sink-destination
// 9.7.13.14: the sink symbol '_' can be used for destination operand d.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    unsigned p;
    asm volatile("{\n\t.reg .pred q;\n\telect.sync _|q, %1;\n\tselp.u32 %0, 1, 0, q;\n\t}" : "=r"(p) : "r"(0xfffffff0u) : "memory");
    if (LANE >= 4) out[TID - 4] = p;
}
