// cp-async-two-copies-of-one-group-to-the-same-bytes
// 9.7.9.25.3.2 (cp.async.commit_group): "two or more cp.async operations within a cp.async-group copying data to the same location results in undefined behavior."
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"
extern "C" __global__ void probe(int *out, const int *in)
{
    __shared__ __align__(16) int s[4];
    if (TID != 0) return;
    asm volatile("cp.async.ca.shared.global [%0], [%1], 8;" :: "r"(sa(s)), "l"(in) : "memory");
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" :: "r"(sa(s + 1)), "l"(in + 2) : "memory");
    asm volatile("cp.async.commit_group;" ::: "memory");
    asm volatile("cp.async.wait_group 0;" ::: "memory");
    out[0] = 1;
}
