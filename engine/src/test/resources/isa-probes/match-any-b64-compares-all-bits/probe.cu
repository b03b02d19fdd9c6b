// match-any-b64-compares-all-bits
// 9.7.13.10: operand a has the instruction type (.b64): values differing only in the upper word differ.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

__device__ __forceinline__ unsigned match_any64(u64 a, unsigned m)
{ unsigned r; asm volatile("match.any.sync.b64 %0, %1, %2;" : "=r"(r) : "l"(a), "r"(m) : "memory"); return r; }

extern "C" __global__ void probe(int *out)
{
    u64 a = ((u64)(LANE & 1u) << 32) | 5u;
    out[TID] = (int)match_any64(a, 0xffffffffu);
}
