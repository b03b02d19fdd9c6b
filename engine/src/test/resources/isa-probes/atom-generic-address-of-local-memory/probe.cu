// atom-generic-address-of-local-memory
// 9.7.13.5: "atom with scalar type may be used only ... with generic addressing, where the address points to .global or .shared space."
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out, int i)
{
    int local[4] = {1, 2, 3, 4};
    // Inline PTX: for atomicAdd on a local array nvcc itself emits only a trap.
    int *p = &local[i & 3];
    int r;
    asm volatile("atom.add.u32 %0, [%1], 1;" : "=r"(r) : "l"(p) : "memory");
    out[0] = r + local[(i + 1) & 3];
}
