// mbarrier-nocomplete-count-max-minus-one
// 9.7.13.15.13/17: with expected count 2^20 - 1, .noComplete arrive of 2^20 - 2 leaves one pending; pending_count gives 2^20 - 1.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    if (TID != 0) return;
    __shared__ u64 bar;
    unsigned b = sa(&bar);
    mb_init(b, 1048575);
    u64 s;
    asm volatile("mbarrier.arrive.noComplete.shared::cta.b64 %0, [%1], %2;" : "=l"(s) : "r"(b), "r"(1048574u) : "memory");
    unsigned c; asm volatile("mbarrier.pending_count.b64 %0, %1;" : "=r"(c) : "l"(s));
    out[0] = c;
    out[1] = mb_test(b, s);
    mb_arrive(b);
    out[2] = mb_test(b, s);
}
