// cp-async-mbarrier-arrive-noinc-alone-completes
// 9.7.13.15.15: the system's arrive-on after the copies completes a count-1 phase by itself.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out, const int *in)
{
    if (TID != 0) return;
    __shared__ u64 bar;
    __shared__ int s[4];
    unsigned b = sa(&bar);
    mb_init(b, 1);
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" :: "r"(sa(&s[0])), "l"(in + 3) : "memory");
    asm volatile("cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%0];" :: "r"(b) : "memory");
    mb_wait_par(b, 0);
    out[0] = s[0];
}
