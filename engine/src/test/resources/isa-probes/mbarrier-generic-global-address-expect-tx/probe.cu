// mbarrier-generic-global-address-expect-tx
// 9.7.13.15.11: with generic addressing, an address outside the shared window (a global buffer) is undefined.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    if (TID != 0) return;
    u64 g = (u64)(out + 2);
    asm volatile("mbarrier.expect_tx.b64 [%0], 16;" :: "l"(g) : "memory");
    out[0] = 1;
}
