// bar-arrive-count-zero
// 9.7.13.1: a non-zero thread count is required for barrier{.cta}.arrive.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out, unsigned n)
{
    if (WARP == 0) asm volatile("bar.arrive 1, %0;" :: "r"(n) : "memory");
    else asm volatile("bar.sync 1, 64;" ::: "memory");
    out[TID] = 1;
}
