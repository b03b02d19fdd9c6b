// cp-async-wait-all-commits-the-open-group
// 9.7.9.25.3 (cp.async.wait_all): wait_all is commit_group followed by wait_group 0: an uncommitted copy is waited for.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out, const int *in)
{
    __shared__ __align__(16) int s[4];
    if (TID != 0) return;
    asm volatile("cp.async.ca.shared.global [%0], [%1], 16;" :: "r"(sa(s)), "l"(in + 4) : "memory");
    asm volatile("cp.async.wait_all;" ::: "memory");
    for (int i = 0; i < 4; i++) { int v; asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v) : "r"(sa(&s[i])) : "memory"); out[i] = v; }
}
