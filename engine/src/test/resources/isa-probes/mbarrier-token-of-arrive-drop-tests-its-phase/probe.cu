// mbarrier-token-of-arrive-drop-tests-its-phase
// 9.7.13.15.14/16: arrive_drop returns the phase before its arrive-on in state; the state tests False, then True once the phase completes.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    if (TID != 0) return;
    __shared__ u64 bar;
    unsigned b = sa(&bar);
    mb_init(b, 2);
    u64 s; asm volatile("mbarrier.arrive_drop.shared::cta.b64 %0, [%1];" : "=l"(s) : "r"(b) : "memory");
    out[0] = mb_test(b, s);
    mb_arrive(b);
    out[1] = mb_test(b, s);
}
