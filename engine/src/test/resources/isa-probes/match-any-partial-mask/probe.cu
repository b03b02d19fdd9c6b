// match-any-partial-mask
// 9.7.13.10: only threads of membermask take part; d names lanes of membermask with the same a.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

__device__ __forceinline__ unsigned match_any(unsigned a, unsigned m)
{ unsigned r; asm volatile("match.any.sync.b32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(m) : "memory"); return r; }

extern "C" __global__ void probe(int *out)
{
    if (LANE >= 8) return;
    out[TID] = (int)match_any(LANE >> 1, 0xffu);
}
