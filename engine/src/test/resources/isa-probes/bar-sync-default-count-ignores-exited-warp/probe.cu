// bar-sync-default-count-ignores-exited-warp
// 9.7.13.1: without b all threads of the CTA participate; the barrier waits only for non-exited threads.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    if (WARP == 2) return;
    __shared__ int s[64];
    s[TID] = TID;
    asm volatile("bar.sync 0;" ::: "memory");
    out[TID] = s[63 - TID];
}
