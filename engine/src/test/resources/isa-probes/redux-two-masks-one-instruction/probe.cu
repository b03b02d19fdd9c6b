// redux-two-masks-one-instruction
// 9.7.13.12: the reduction is across the threads of membermask only (two disjoint masks at one instruction).
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

#define REDUX(OP, T, s, m) ({ unsigned r_; asm volatile("redux.sync." OP "." T " %0, %1, %2;" : "=r"(r_) : "r"((unsigned)(s)), "r"(m) : "memory"); r_; })

extern "C" __global__ void probe(int *out)
{
    unsigned m = LANE < 16 ? 0x0000ffffu : 0xffff0000u;
    out[TID] = (int)REDUX("add", "u32", LANE, m);
}
