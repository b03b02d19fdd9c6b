// redux-and-or-xor
// 9.7.13.12: the bitwise reductions .and, .or, .xor on .b32.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

#define REDUX(OP, T, s, m) ({ unsigned r_; asm volatile("redux.sync." OP "." T " %0, %1, %2;" : "=r"(r_) : "r"((unsigned)(s)), "r"(m) : "memory"); r_; })

extern "C" __global__ void probe(int *out)
{
    unsigned s = 0x80000000u | (1u << (LANE & 7u));
    out[TID] = (int)REDUX("and", "b32", s, 0xffffffffu);
    out[32 + TID] = (int)REDUX("or", "b32", s, 0xffffffffu);
    out[64 + TID] = (int)REDUX("xor", "b32", s, 0xffffffffu);
}
