// red-min-max-s32-from-two-warps
// 9.7.13.6: red.min/.max store min(a, b) / max(a, b), signed for .s32: tids minus 40 from 64 threads give -40 and 23.
// ISA probe: one normative sentence of PTX ISA 9.7.13 (or a section it leans on), run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    int v = (int)TID - 40;
    asm volatile("red.global.min.s32 [%0], %1;" :: "l"(out), "r"(v) : "memory");
    asm volatile("red.global.max.s32 [%0], %1;" :: "l"(out + 1), "r"(v) : "memory");
}