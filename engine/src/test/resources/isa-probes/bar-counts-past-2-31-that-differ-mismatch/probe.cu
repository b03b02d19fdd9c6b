// bar-counts-past-2-31-that-differ-mismatch
// 9.7.13.1: b is .u32 and warps may mix forms only "using the same barrier name and thread count"; 0x7fffffe0 and 0xffffffe0 are different counts.
// ISA probe: one normative sentence of PTX ISA 9.7.13 (or a section it leans on), run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    unsigned n = WARP == 0 ? 0x7fffffe0u : 0xffffffe0u;
    asm volatile("bar.sync 1, %0;" :: "r"(n) : "memory");
    out[TID] = 1;
}