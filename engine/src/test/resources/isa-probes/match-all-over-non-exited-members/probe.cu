// match-all-over-non-exited-members
// 9.7.13.10: .all sets d to the mask of non-exited threads in membermask, and p True, if they all have the same a.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

__device__ __forceinline__ unsigned match_all(unsigned a, unsigned m, unsigned *p)
{ unsigned r, q; asm volatile("{\n\t.reg .pred t;\n\tmatch.all.sync.b32 %0|t, %2, %3;\n\tselp.u32 %1, 1, 0, t;\n\t}" : "=r"(r), "=r"(q) : "r"(a), "r"(m) : "memory"); *p = q; return r; }

extern "C" __global__ void probe(int *out)
{
    if (LANE >= 24) return;
    unsigned p;
    out[TID] = (int)match_all(7u, 0xffffffffu, &p);
    out[32 + TID] = (int)p;
}
