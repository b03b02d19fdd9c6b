// elect-partial-mask
// 9.7.13.14: the leader is elected from the threads of membermask; d is its laneid.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    unsigned m = 0xf0f0f0f0u;
    if ((m >> LANE) & 1) {
        unsigned d, p;
    asm volatile("{\n\t.reg .pred q;\n\telect.sync %0|q, %2;\n\tselp.u32 %1, 1, 0, q;\n\t}" : "=r"(d), "=r"(p) : "r"(m) : "memory");
        out[TID] = d + 1000 * p;
    } else out[TID] = -1;
}
