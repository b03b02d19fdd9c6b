// bar-arrive-register-count-not-multiple-of-warp
// 9.7.13.1: when specifying a thread count, the value must be a multiple of the warp size (count in a register).
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    unsigned n = blockDim.x - 16;
    if (WARP == 0) asm volatile("bar.arrive 1, %0;" :: "r"(n) : "memory");
    else asm volatile("bar.sync 1, %0;" :: "r"(n) : "memory");
    out[TID] = 1;
}
