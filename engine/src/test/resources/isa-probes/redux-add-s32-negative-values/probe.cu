// redux-add-s32-negative-values
// 9.7.13.12: .add over .s32 sums the members' signed values (32 lanes of -3).
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    int d, v = -3;
    asm volatile("redux.sync.add.s32 %0, %1, 0xffffffff;" : "=r"(d) : "r"(v));
    out[TID] = d;
}
