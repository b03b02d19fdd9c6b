// bar-register-id-15
// 9.7.13.1: operand a is an immediate or a register with value 0 through 15.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out, unsigned id)
{
    __shared__ int s[64];
    s[TID] = TID;
    asm volatile("bar.sync %0;" :: "r"(id) : "memory");
    out[TID] = s[63 - TID];
}
