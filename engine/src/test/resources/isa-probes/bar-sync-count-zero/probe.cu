// bar-sync-count-zero
// 9.7.13.1: a thread count must be a multiple of the warp size (a non-zero one is required for arrive; the ISA gives 0 no meaning for sync).
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out, unsigned n)
{
    asm volatile("bar.sync 1, %0;" :: "r"(n) : "memory");
    out[TID] = 1;
}
