// elect-sync-register-mask-of-one-lane
// 9.7.13.14: membermask may be a register; with a single member that lane is elected (d its laneid, p True).
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    if (LANE != 9) return;
    unsigned m = 1u << 9, d, p;
    asm volatile("{\n\t.reg .pred q;\n\telect.sync %0|q, %2;\n\tselp.u32 %1, 1, 0, q;\n\t}" : "=r"(d), "=r"(p) : "r"(m));
    out[0] = d; out[1] = p;
}
