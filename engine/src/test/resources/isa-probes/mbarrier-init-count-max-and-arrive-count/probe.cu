// mbarrier-init-count-max-and-arrive-count
// 9.7.13.15.2/7: expected count up to 2^20-1; arrive-on with count decrements pending by count.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out, unsigned n)
{
    if (TID != 0) return;
    __shared__ u64 bar;
    unsigned b = sa(&bar);
    mb_init(b, n);
    u64 s0 = mb_arrive_n(b, n - 1);
    out[0] = mb_test(b, s0);
    u64 s1 = mb_arrive_n(b, 1);
    out[1] = mb_test(b, s1);
    out[2] = mb_test(b, s0);
}
