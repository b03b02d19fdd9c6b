// bulk-prefetch-size-off-sixteen
// 9.7.9.25.4.3 (cp.async.bulk.prefetch): "size must be a multiple of 16. The address srcMem must be aligned to 16 bytes."
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"
extern "C" __global__ void probe(int *out, const int *in, int n)
{
    if (TID != 0) return;
    asm volatile("cp.async.bulk.prefetch.L2.global [%0], %1;" :: "l"(in), "r"(n) : "memory");
    out[0] = 1;
}
