// atom-exch-b32-returns-old-value
// 9.7.13.5: atom.exch stores b and returns the original value of a; two exchanges chain: the second returns the first's b.
// ISA probe: one normative sentence of PTX ISA 9.7.13 (or a section it leans on), run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    if (TID != 0) return;
    unsigned a, b;
    asm volatile("st.global.u32 [%0], 5;" :: "l"(out) : "memory");
    asm volatile("atom.global.exch.b32 %0, [%1], 6;" : "=r"(a) : "l"(out) : "memory");
    asm volatile("atom.exch.b32 %0, [%1], 7;" : "=r"(b) : "l"(out) : "memory");
    out[1] = (int)a; out[2] = (int)b;
}