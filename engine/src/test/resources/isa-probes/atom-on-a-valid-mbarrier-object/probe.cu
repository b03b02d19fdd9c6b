// atom-on-a-valid-mbarrier-object
// 9.7.13.15: performing any non-mbarrier operation (an atom) on an initialized mbarrier object is undefined.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    if (TID != 0) return;
    __shared__ u64 bar;
    unsigned b = sa(&bar);
    mb_init(b, 2);
    unsigned r; asm volatile("atom.shared.add.u32 %0, [%1], 1;" : "=r"(r) : "r"(b) : "memory");
    out[0] = r;
}
