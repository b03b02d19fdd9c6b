// mbarrier-nocomplete-with-explicit-release-cta
// 9.7.13.15.13 (syntax): mbarrier.arrive.noComplete{.release}{.cta}{.shared{::cta}}: the explicit .release.cta form is the same arrive.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    if (TID != 0) return;
    __shared__ u64 bar;
    unsigned b = sa(&bar);
    mb_init(b, 2);
    u64 s; asm volatile("mbarrier.arrive.noComplete.release.cta.shared::cta.b64 %0, [%1], 1;" : "=l"(s) : "r"(b) : "memory");
    unsigned c; asm volatile("mbarrier.pending_count.b64 %0, %1;" : "=r"(c) : "l"(s));
    out[0] = c;
    out[1] = mb_test(b, s);
    mb_arrive(b);
    out[2] = mb_test(b, s);
}
