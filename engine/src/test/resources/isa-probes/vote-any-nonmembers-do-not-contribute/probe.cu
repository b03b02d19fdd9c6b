// vote-any-nonmembers-do-not-contribute
// 9.7.13.9: .any is True if the source predicate is True for some thread in membermask (two masks, one instruction).
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

__device__ __forceinline__ unsigned vote_any(unsigned p, unsigned m)
{ unsigned r; asm volatile("{\n\t.reg .pred a, d;\n\tsetp.ne.u32 a, %1, 0;\n\tvote.sync.any.pred d, a, %2;\n\tselp.u32 %0, 1, 0, d;\n\t}" : "=r"(r) : "r"(p), "r"(m) : "memory"); return r; }

extern "C" __global__ void probe(int *out)
{
    unsigned m = LANE < 16 ? 0x0000ffffu : 0xffff0000u;
    out[TID] = 10 + vote_any(LANE >= 16, m);
}
