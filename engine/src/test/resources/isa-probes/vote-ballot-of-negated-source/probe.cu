// vote-ballot-of-negated-source
// 9.7.13.9: ballot copies each member's (here negated, {!}a) predicate into its lane bit.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    unsigned p = LANE < 4, d;
    asm volatile("{\n\t.reg .pred q;\n\tsetp.ne.u32 q, %1, 0;\n\tvote.sync.ballot.b32 %0, !q, 0xffffffff;\n\t}" : "=r"(d) : "r"(p));
    out[TID] = d;
}
