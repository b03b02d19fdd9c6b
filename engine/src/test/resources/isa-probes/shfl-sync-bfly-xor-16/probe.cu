// shfl-sync-bfly-xor-16
// 9.7.9.6 (shfl.sync): .bfly reads a from lane (lane xor b).
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    unsigned v = 100 + LANE, d;
    asm volatile("shfl.sync.bfly.b32 %0, %1, 16, 0x1f, 0xffffffff;" : "=r"(d) : "r"(v));
    out[TID] = d;
}
