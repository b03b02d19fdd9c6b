// elect-leader-is-a-member
// 9.7.13.14: the leader is elected from among the threads specified by membermask.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

__device__ __forceinline__ unsigned elect(unsigned m, unsigned *leader)
{ unsigned d, p; asm volatile("{\n\t.reg .pred q;\n\telect.sync %0|q, %2;\n\tselp.u32 %1, 1, 0, q;\n\t}" : "=r"(d), "=r"(p) : "r"(m) : "memory"); *leader = p; return d; }

extern "C" __global__ void probe(int *out)
{
    unsigned m = 0x0f0f0f00u;
    if (!((m >> LANE) & 1u)) return;
    unsigned p;
    unsigned d = elect(m, &p);
    out[TID] = (m >> d) & 1u;
    if (p) atomicAdd(&out[32], 1);
}
