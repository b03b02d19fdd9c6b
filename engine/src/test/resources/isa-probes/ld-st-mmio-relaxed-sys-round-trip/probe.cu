// ld-st-mmio-relaxed-sys-round-trip
// 9.7.9.8, 9.7.9.11 (ld, st): "ld.mmio.relaxed.sys{.global}.type" and its st form are strong .sys accesses to global memory.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"
extern "C" __global__ void probe(int *out, const int *in)
{
    if (TID != 0) return;
    int v;
    asm volatile("st.mmio.relaxed.sys.global.u32 [%0], %1;" :: "l"(out + 1), "r"(42) : "memory");
    asm volatile("ld.mmio.relaxed.sys.global.u32 %0, [%1];" : "=r"(v) : "l"(out + 1) : "memory");
    out[0] = v;
}
