// atom-cache-hint-through-a-generic-global-address
// 9.7.13.5: .level::cache_hint is supported "for generic addressing where the address points to the .global state space"; the policy is only a hint.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    out[0] = 7;
    unsigned r;
    u64 policy = 0;
    asm volatile("atom.add.L2::cache_hint.u32 %0, [%1], 1, %2;" : "=r"(r) : "l"(out), "l"(policy) : "memory");
    out[1] = r;
}
