// bar-sync-lanes-of-one-warp-give-different-counts
// 9.7.13.1: different warps may use different forms with the same barrier name and thread count; lanes of one warp naming two counts disagree.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    unsigned n = (LANE < 16) ? 64 : 32;
    asm volatile("barrier.sync 1, %0;" :: "r"(n) : "memory");
    if (TID == 0) out[0] = 1;
}
