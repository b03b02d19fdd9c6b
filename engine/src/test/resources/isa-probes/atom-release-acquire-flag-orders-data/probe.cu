// atom-release-acquire-flag-orders-data
// 9.7.13.5: atom with .release and .acquire semantics form the release and acquire patterns that order the data.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    int *data = out + 64, *flag = out + 65;
    if (TID == 32) {
        *data = 42;
        unsigned o; asm volatile("atom.release.gpu.global.exch.b32 %0, [%1], 1;" : "=r"(o) : "l"(flag) : "memory");
    }
    if (TID == 0) {
        unsigned f = 0;
        while (!f) asm volatile("atom.acquire.gpu.global.or.b32 %0, [%1], 0;" : "=r"(f) : "l"(flag) : "memory");
        out[0] = *data;
    }
}
