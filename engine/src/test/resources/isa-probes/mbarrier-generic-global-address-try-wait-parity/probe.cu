// mbarrier-generic-global-address-try-wait-parity
// 9.7.13.15.16: with generic addressing, an address outside the shared window (a global buffer) is undefined.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    if (TID != 0) return;
    u64 g = (u64)(out + 2);
    unsigned r; asm volatile("{\n\t.reg .pred p;\n\tmbarrier.try_wait.parity.b64 p, [%1], 0;\n\tselp.u32 %0, 1, 0, p;\n\t}" : "=r"(r) : "l"(g) : "memory");
    out[1] = r;
    out[0] = 1;
}
