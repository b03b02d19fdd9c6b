// atom-and-or-xor-return-old-and-store-result
// 9.7.13.5: atom.and/.or/.xor store a op b and return the original value of a.
// ISA probe: one normative sentence of PTX ISA 9.7.13 (or a section it leans on), run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    if (TID != 0) return;
    unsigned a, b, c;
    asm volatile("st.global.u32 [%0], 12;" :: "l"(out) : "memory");
    asm volatile("atom.global.and.b32 %0, [%1], 10;" : "=r"(a) : "l"(out) : "memory");
    asm volatile("atom.global.or.b32 %0, [%1], 5;" : "=r"(b) : "l"(out) : "memory");
    asm volatile("atom.global.xor.b32 %0, [%1], 3;" : "=r"(c) : "l"(out) : "memory");
    out[1] = (int)a; out[2] = (int)b; out[3] = (int)c;
}