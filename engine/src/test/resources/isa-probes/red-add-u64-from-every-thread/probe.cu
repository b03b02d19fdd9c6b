// red-add-u64-from-every-thread
// 9.7.13.6: red.add.u64 adds atomically in 64 bits: 64 threads adding 2^32 + tid leave 64 * 2^32 + 2016.
// ISA probe: one normative sentence of PTX ISA 9.7.13 (or a section it leans on), run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(u64 *out)
{
    u64 v = (1ull << 32) + TID;
    asm volatile("red.global.add.u64 [%0], %1;" :: "l"(out), "l"(v) : "memory");
}