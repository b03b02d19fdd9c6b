// elect-exited-member
// 9.7.13.14: .sync waits until all threads in membermask execute elect; exited lanes never do.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    if (LANE < 4) return;
    unsigned m = 0xffffffffu;
    unsigned d, p;
    asm volatile("{\n\t.reg .pred q;\n\telect.sync %0|q, %2;\n\tselp.u32 %1, 1, 0, q;\n\t}" : "=r"(d), "=r"(p) : "r"(m) : "memory");
    out[TID - 4] = d;
}
