// cp-async-mbarrier-arrive-noinc-twice-by-one-thread
// 9.7.13.15.15: each cp.async.mbarrier.arrive triggers one arrive-on after all prior cp.async of the thread; two .noinc ones complete a count-2 phase.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out, const int *in)
{
    __shared__ __align__(16) int s[4];
    __shared__ u64 bar;
    if (TID != 0) return;
    unsigned b = sa(&bar);
    mb_init(b, 2);
    asm volatile("cp.async.ca.shared.global [%0], [%1], 16;" :: "r"(sa(s)), "l"(in) : "memory");
    asm volatile("cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%0];" :: "r"(b) : "memory");
    asm volatile("cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%0];" :: "r"(b) : "memory");
    mb_wait_par(b, 0);
    for (int i = 0; i < 4; i++) { int v; asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v) : "r"(sa(&s[i])) : "memory"); out[i] = v; }
}
