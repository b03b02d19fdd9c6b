// vote-all-ignores-exited-lanes
// 9.7.13.9: .all is True if the source predicate is True for all non-exited threads in membermask.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

__device__ __forceinline__ unsigned vote_all(unsigned p, unsigned m)
{ unsigned r; asm volatile("{\n\t.reg .pred a, d;\n\tsetp.ne.u32 a, %1, 0;\n\tvote.sync.all.pred d, a, %2;\n\tselp.u32 %0, 1, 0, d;\n\t}" : "=r"(r) : "r"(p), "r"(m) : "memory"); return r; }

extern "C" __global__ void probe(int *out)
{
    if (LANE >= 16) return;
    out[TID] = 10 + vote_all(1, 0xffffffffu);
}
