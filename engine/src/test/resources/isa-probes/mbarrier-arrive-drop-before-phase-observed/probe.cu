// mbarrier-arrive-drop-before-phase-observed
// 9.7.13.15.4: a wait returning True must precede an arrive-on in the next phase; arrive_drop performs an arrive-on.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    if (TID != 0) return;
    __shared__ u64 bar;
    unsigned b = sa(&bar);
    mb_init(b, 2);
    mb_arrive_n(b, 2);
    asm volatile("mbarrier.arrive_drop.shared::cta.b64 _, [%0];" :: "r"(b) : "memory");
    out[0] = 1;
}
