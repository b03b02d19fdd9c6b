// redux-not-member
// 9.7.13.12: the behavior of redux.sync is undefined if the executing thread is not in the membermask.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

#define REDUX(OP, T, s, m) ({ unsigned r_; asm volatile("redux.sync." OP "." T " %0, %1, %2;" : "=r"(r_) : "r"((unsigned)(s)), "r"(m) : "memory"); r_; })

extern "C" __global__ void probe(int *out)
{
    out[TID] = (int)REDUX("add", "u32", 1u, 0x0000ffffu);
}
