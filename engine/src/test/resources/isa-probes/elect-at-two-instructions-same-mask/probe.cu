// elect-at-two-instructions-same-mask
// 9.7.13.14: elect waits until all threads of membermask execute elect; sm_70+ threads need not be converged.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    unsigned d, p, m = 0xffffffffu;
    if (LANE & 1) asm volatile("{\n\t.reg .pred q;\n\telect.sync %0|q, %2;\n\tselp.u32 %1, 1, 0, q;\n\t}" : "=r"(d), "=r"(p) : "r"(m) : "memory");
    else asm volatile("{\n\t.reg .pred q;\n\telect.sync %0|q, %2;\n\tselp.u32 %1, 2, 0, q;\n\t}" : "=r"(d), "=r"(p) : "r"(m) : "memory");
    out[TID] = d + 1000 * p;
}
