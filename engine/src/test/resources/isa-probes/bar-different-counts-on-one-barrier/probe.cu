// bar-different-counts-on-one-barrier
// 9.7.13.1: different warps may mix forms using the same barrier name and thread count; a different count is not defined.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    if (WARP == 0) asm volatile("bar.arrive 1, 64;" ::: "memory");
    else asm volatile("bar.sync 1, 96;" ::: "memory");
    out[TID] = 1;
}
