// warp-sync-exited-member
// 9.7.13.2: wait until all threads of membermask execute bar.warp.sync; exited lanes never do.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    if (LANE >= 16) return;
    asm volatile("bar.warp.sync %0;" :: "r"(0xffffffffu) : "memory");
    out[TID] = 1;
}
