// match-any-ignores-exited-lanes
// 9.7.13.10: .any sets d to the mask of non-exited threads in membermask with the same value of a.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

__device__ __forceinline__ unsigned match_any(unsigned a, unsigned m)
{ unsigned r; asm volatile("match.any.sync.b32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(m) : "memory"); return r; }

extern "C" __global__ void probe(int *out)
{
    if (LANE >= 16) return;
    out[TID] = (int)match_any(0u, 0xffffffffu);
}
