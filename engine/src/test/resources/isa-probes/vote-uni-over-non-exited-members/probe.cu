// vote-uni-over-non-exited-members
// 9.7.13.9: .uni is True if the source predicate has the same value in all non-exited threads in membermask.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

__device__ __forceinline__ unsigned vote_uni(unsigned p, unsigned m)
{ unsigned r; asm volatile("{\n\t.reg .pred a, d;\n\tsetp.ne.u32 a, %1, 0;\n\tvote.sync.uni.pred d, a, %2;\n\tselp.u32 %0, 1, 0, d;\n\t}" : "=r"(r) : "r"(p), "r"(m) : "memory"); return r; }

extern "C" __global__ void probe(int *out)
{
    if (LANE < 4) return;
    out[TID] = 10 + vote_uni(LANE >= 4, 0xffffffffu);
    out[32 + TID] = 10 + vote_uni(LANE & 1u, 0xffffffffu);
}
