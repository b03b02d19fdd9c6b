// bar-sync-default-count-other-warp-at-other-id
// 9.7.13.1: without b all non-exited threads of the CTA must arrive at that barrier; a warp waiting at another id never does.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    if (WARP == 0) asm volatile("bar.sync 0;" ::: "memory");
    else asm volatile("bar.sync 1;" ::: "memory");
    out[TID] = 1;
}
