// mbarrier-generic-address-in-global
// 9.7.13.15.9: a generic address outside the .shared::cta window is undefined.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    if (TID != 0) return;
    u64 g = (u64)out;
    asm volatile("mbarrier.init.b64 [%0], 1;" :: "l"(g) : "memory");
    out[2] = 1;
}
