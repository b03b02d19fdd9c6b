// vote-ballot-is-per-warp
// 9.7.13.9: membermask bits are lane ids of the executing warp; ballot copies each member's predicate (two warps).
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

__device__ __forceinline__ unsigned ballot(unsigned p, unsigned m)
{ unsigned r; asm volatile("{\n\t.reg .pred a;\n\tsetp.ne.u32 a, %1, 0;\n\tvote.sync.ballot.b32 %0, a, %2;\n\t}" : "=r"(r) : "r"(p), "r"(m) : "memory"); return r; }

extern "C" __global__ void probe(int *out)
{
    out[TID] = (int)ballot(TID < 40, 0xffffffffu);
}
