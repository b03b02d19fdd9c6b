// mbarrier-arrive-drop-with-count
// 9.7.13.15.14: arrive_drop with count lowers the expected count by count and arrives with count.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    if (TID != 0) return;
    __shared__ u64 bar;
    unsigned b = sa(&bar);
    mb_init(b, 4);
    asm volatile("mbarrier.arrive_drop.shared::cta.b64 _, [%0], 3;" :: "r"(b) : "memory");
    out[0] = mb_test_par(b, 0);
    u64 s = mb_arrive(b);
    out[1] = mb_test(b, s);
    s = mb_arrive(b);
    out[2] = mb_test(b, s);
}
