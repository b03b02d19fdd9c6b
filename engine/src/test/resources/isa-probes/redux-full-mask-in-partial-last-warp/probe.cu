// redux-full-mask-in-partial-last-warp
// 9.7.13.12: the reduction is across the non-exited threads of membermask; lanes past the CTA's last thread do not exist (40 threads).
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

#define REDUX(OP, T, s, m) ({ unsigned r_; asm volatile("redux.sync." OP "." T " %0, %1, %2;" : "=r"(r_) : "r"((unsigned)(s)), "r"(m) : "memory"); r_; })

extern "C" __global__ void probe(int *out)
{
    out[TID] = (int)REDUX("add", "u32", TID, 0xffffffffu);
}
