// mbarrier-inval-then-reuse-memory-and-reinit
// 9.7.13.15.10 example: after inval the memory may be stored to and re-initialized as an mbarrier.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    if (TID != 0) return;
    __shared__ u64 bar;
    unsigned b = sa(&bar);
    mb_init(b, 1);
    u64 s = mb_arrive(b);
    out[0] = mb_test(b, s);
    mb_inval(b);
    *(volatile u64 *)&bar = 77;
    out[1] = (int)*(volatile u64 *)&bar;
    mb_init(b, 1);
    s = mb_arrive(b);
    out[2] = mb_test(b, s);
}
