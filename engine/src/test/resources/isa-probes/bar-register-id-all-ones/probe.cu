// bar-register-id-all-ones
// 9.7.13.1: operand a is a .u32 register with value 0 through 15; 0xffffffff names no barrier.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out, unsigned id)
{
    asm volatile("bar.sync %0;" :: "r"(id) : "memory");
    out[TID] = 1;
}
