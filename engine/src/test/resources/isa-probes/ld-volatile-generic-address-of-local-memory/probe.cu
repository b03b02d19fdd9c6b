// ld-volatile-generic-address-of-local-memory
// 9.7.9.8 (ld): "The qualifiers .volatile, .relaxed and .acquire may be used only with .global and .shared spaces and with generic addressing, where the address points to .global or .shared space."
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out, int k)
{
    int loc[4];
    for (int i = 0; i < 4; i++) loc[i] = i + k;
    int v;
    asm volatile("ld.volatile.u32 %0, [%1];" : "=r"(v) : "l"(&loc[k & 3]) : "memory");
    out[TID] = v;
}
