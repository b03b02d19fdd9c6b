// match-all-b64-equal-values
// 9.7.13.10: .all sets d to the mask of the non-exited members and p True when all have the same .b64 value.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    u64 v = 0x123456789abcdefull;
    unsigned d, p;
    asm volatile("{\n\t.reg .pred q;\n\tmatch.all.sync.b64 %0|q, %2, 0xffffffff;\n\tselp.u32 %1, 1, 0, q;\n\t}" : "=r"(d), "=r"(p) : "l"(v));
    out[TID] = (int)d + (int)p;
}
