// red-generic-address-of-local-memory
// 9.7.13.6: "red with scalar type may be used only ... with generic addressing, where the address points to .global or .shared space."
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    int local[4] = {1, 2, 3, 4};
    int *p = &local[threadIdx.x & 3];
    asm volatile("red.add.u32 [%0], 1;" :: "l"(p) : "memory");
    out[0] = local[threadIdx.x & 3];
}
