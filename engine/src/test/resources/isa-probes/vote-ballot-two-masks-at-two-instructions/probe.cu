// vote-ballot-two-masks-at-two-instructions
// 9.7.13.9: ballot copies each member's predicate to its lane bit; threads outside membermask contribute 0 (two disjoint masks).
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    unsigned d, p = LANE % 3 == 0;
    if (LANE < 16) asm volatile("{\n\t.reg .pred q;\n\tsetp.ne.u32 q, %1, 0;\n\tvote.sync.ballot.b32 %0, q, 0x0000ffff;\n\t}" : "=r"(d) : "r"(p));
    else asm volatile("{\n\t.reg .pred q;\n\tsetp.ne.u32 q, %1, 0;\n\tvote.sync.ballot.b32 %0, q, 0xffff0000;\n\t}" : "=r"(d) : "r"(p));
    out[TID] = d;
}
