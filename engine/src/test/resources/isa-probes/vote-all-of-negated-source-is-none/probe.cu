// vote-all-of-negated-source-is-none
// 9.7.13.9: .all: negate the source predicate to compute .none (True only if no member's predicate is True).
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    unsigned p = LANE == 7, d, e;
    asm volatile("{\n\t.reg .pred q, r;\n\tsetp.ne.u32 q, %1, 0;\n\tvote.sync.all.pred r, !q, 0xffffffff;\n\tselp.u32 %0, 1, 0, r;\n\t}" : "=r"(d) : "r"(p));
    unsigned p2 = 0; { unsigned p = p2; asm volatile("{\n\t.reg .pred q, r;\n\tsetp.ne.u32 q, %1, 0;\n\tvote.sync.all.pred r, !q, 0xffffffff;\n\tselp.u32 %0, 1, 0, r;\n\t}" : "=r"(e) : "r"(p)); }
    out[TID] = 10 * d + e;
}
