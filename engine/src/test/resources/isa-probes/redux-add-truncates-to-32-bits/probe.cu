// redux-add-truncates-to-32-bits
// 9.7.13.12: for the .add operation the result is truncated to 32 bits.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

#define REDUX(OP, T, s, m) ({ unsigned r_; asm volatile("redux.sync." OP "." T " %0, %1, %2;" : "=r"(r_) : "r"((unsigned)(s)), "r"(m) : "memory"); r_; })

extern "C" __global__ void probe(int *out)
{
    out[TID] = (int)REDUX("add", "u32", 0x08000001u, 0xffffffffu);
}
