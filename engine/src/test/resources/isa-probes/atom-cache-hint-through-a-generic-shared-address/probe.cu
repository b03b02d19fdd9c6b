// atom-cache-hint-through-a-generic-shared-address
// 9.7.13.5: ".level::cache_hint is only supported for .global state space and for generic addressing where the address points to the .global state space."
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    __shared__ unsigned v;
    unsigned *p = &v;
    unsigned r;
    u64 policy = 0;
    asm volatile("atom.add.L2::cache_hint.u32 %0, [%1], 1, %2;" : "=r"(r) : "l"(p), "l"(policy) : "memory");
    out[0] = r;
}
