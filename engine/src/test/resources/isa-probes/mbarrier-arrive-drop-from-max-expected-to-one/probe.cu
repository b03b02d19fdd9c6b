// mbarrier-arrive-drop-from-max-expected-to-one
// 9.7.13.15.14/2: arrive_drop with count 2^20 - 2 lowers an expected count of 2^20 - 1 to 1; later phases need one arrival.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    if (TID != 0) return;
    __shared__ u64 bar;
    unsigned b = sa(&bar);
    mb_init(b, 1048575);
    asm volatile("mbarrier.arrive_drop.shared::cta.b64 _, [%0], %1;" :: "r"(b), "r"(1048574u) : "memory");
    out[0] = mb_test_par(b, 0);
    mb_arrive(b);
    out[1] = mb_test_par(b, 0);
    mb_arrive(b);
    out[2] = mb_test_par(b, 1);
}
