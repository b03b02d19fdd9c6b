// redux-min-over-odd-lanes
// 9.7.13.12: the reduction covers only the threads of membermask (odd lanes, mask 0xaaaaaaaa); even lanes use their own mask.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    unsigned d, v = 1000 - LANE;
    if (LANE & 1) asm volatile("redux.sync.min.u32 %0, %1, 0xaaaaaaaa;" : "=r"(d) : "r"(v));
    else asm volatile("redux.sync.min.u32 %0, %1, 0x55555555;" : "=r"(d) : "r"(v));
    out[TID] = d;
}
