// bar-sync-guard-false-for-a-whole-warp
// 9.7.13.1: a guard evaluated identically by all threads of a warp is uniform: warp 1 skips, the barrier with count 32 completes for warp 0.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    asm volatile("{\n\t.reg .pred p;\n\tsetp.eq.u32 p, %0, 0;\n\t@p bar.sync 1, 32;\n\t}" :: "r"(WARP) : "memory");
    out[TID] = 1;
}
