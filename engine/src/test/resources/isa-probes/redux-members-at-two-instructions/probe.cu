// redux-members-at-two-instructions
// 9.7.13.12: members wait for each other at any redux.sync with the same qualifiers and membermask (two instructions).
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

#define REDUX(OP, T, s, m) ({ unsigned r_; asm volatile("redux.sync." OP "." T " %0, %1, %2;" : "=r"(r_) : "r"((unsigned)(s)), "r"(m) : "memory"); r_; })

extern "C" __global__ void probe(int *out)
{
    unsigned r;
    if (LANE < 16) r = REDUX("add", "u32", LANE, 0xffffffffu);
    else r = REDUX("add", "u32", LANE, 0xffffffffu) + 1000;
    out[TID] = (int)r;
}
