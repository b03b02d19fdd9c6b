// elect-full-mask-in-partial-last-warp
// 9.7.13.14: elect.sync elects one leader from the threads of membermask that exist (40 threads: one leader per warp).
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

__device__ __forceinline__ unsigned elect(unsigned m, unsigned *leader)
{ unsigned d, p; asm volatile("{\n\t.reg .pred q;\n\telect.sync %0|q, %2;\n\tselp.u32 %1, 1, 0, q;\n\t}" : "=r"(d), "=r"(p) : "r"(m) : "memory"); *leader = p; return d; }

extern "C" __global__ void probe(int *out)
{
    unsigned p;
    elect(0xffffffffu, &p);
    if (p) atomicAdd(&out[WARP], 1);
}
