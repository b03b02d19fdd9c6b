// mbarrier-arrive-drop-to-zero
// 9.7.13.15.2: the expected arrival count minimum is 1.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    if (TID != 0) return;
    __shared__ u64 bar;
    unsigned b = sa(&bar);
    mb_init(b, 1);
    asm volatile("mbarrier.arrive_drop.shared::cta.b64 _, [%0];" :: "r"(b) : "memory");
    out[0] = 1;
}
