// cp-async-mbarrier-arrive-generic-own-cta-address
// 9.7.13.15.15: without a state space addr is generic; an address in the .shared::cta window names the CTA's object.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    if (TID != 0) return;
    __shared__ u64 bar;
    unsigned b = sa(&bar);
    mb_init(b, 1);
    asm volatile("cp.async.mbarrier.arrive.noinc.b64 [%0];" :: "l"((u64)&bar) : "memory");
    mb_wait_par(b, 0);
    out[0] = 1;
}
