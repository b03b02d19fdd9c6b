// atom-add-from-every-thread-sums
// 9.7.13.5: atom performs the read-modify-write atomically: 64 threads adding 1 leave 64, and the old values they get are 0..63 (sum 2016).
// ISA probe: one normative sentence of PTX ISA 9.7.13 (or a section it leans on), run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    unsigned old;
    asm volatile("atom.global.add.u32 %0, [%1], 1;" : "=r"(old) : "l"(out) : "memory");
    asm volatile("red.global.add.u32 [%0], %1;" :: "l"(out + 1), "r"(old) : "memory");
}