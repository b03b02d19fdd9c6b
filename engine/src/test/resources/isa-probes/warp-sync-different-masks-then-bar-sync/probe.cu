// warp-sync-different-masks-then-bar-sync
// 9.7.13.2: lanes with mask 0xffffffff wait for lanes that used another mask; those wait at bar.sync for them: deadlock.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    unsigned m = LANE < 16 ? 0xffffu : 0xffffffffu;
    asm volatile("bar.warp.sync %0;" :: "r"(m) : "memory");
    asm volatile("barrier.sync 0;" ::: "memory");
    out[TID] = 1;
}
