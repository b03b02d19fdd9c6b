// bar-arrive-register-id-16
// 9.7.13.1: operand a (here of bar.arrive, in a register) has a value 0 through 15; 16 names no barrier.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out, unsigned id)
{
    if (WARP == 0) asm volatile("bar.arrive %0, 64;" :: "r"(id) : "memory");
    else asm volatile("bar.sync %0, 64;" :: "r"(id) : "memory");
    out[TID] = 1;
}
