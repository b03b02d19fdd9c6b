// redux-min-signed-and-unsigned
// 9.7.13.12: .min with .s32 compares signed, with .u32 unsigned.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

#define REDUX(OP, T, s, m) ({ unsigned r_; asm volatile("redux.sync." OP "." T " %0, %1, %2;" : "=r"(r_) : "r"((unsigned)(s)), "r"(m) : "memory"); r_; })

extern "C" __global__ void probe(int *out)
{
    int s = (int)LANE - 10;
    out[TID] = (int)REDUX("min", "s32", s, 0xffffffffu);
    out[32 + TID] = (int)REDUX("min", "u32", s, 0xffffffffu);
}
