// activemask-predicated-off-lanes-contribute-zero
// 9.7.13.11: "An active thread will contribute 1 for its entry in the result and exited or inactive or predicated-off thread will contribute 0".
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    unsigned m = 0;
    asm volatile("{\n\t.reg .pred p;\n\tsetp.lt.u32 p, %1, 16;\n\t@p activemask.b32 %0;\n\t}" : "+r"(m) : "r"(LANE));
    if (LANE == 0) out[0] = m;
}
