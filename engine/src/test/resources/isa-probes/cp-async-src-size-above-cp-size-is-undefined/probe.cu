// cp-async-src-size-above-cp-size-is-undefined
// 9.7.9.25.3.1 (cp.async): "Specifying src-size larger than cp-size results in undefined behavior."
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"
extern "C" __global__ void probe(int *out, const int *in, int n)
{
    __shared__ __align__(16) int s[4];
    if (TID != 0) return;
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" :: "r"(sa(s)), "l"(in), "r"(n) : "memory");
    asm volatile("cp.async.wait_all;" ::: "memory");
    out[0] = 1;
}
