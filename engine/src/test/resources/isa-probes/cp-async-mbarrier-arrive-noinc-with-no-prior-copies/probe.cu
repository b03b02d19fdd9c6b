// cp-async-mbarrier-arrive-noinc-with-no-prior-copies
// 9.7.13.15.15: the arrive-on is triggered once all prior cp.async of the thread complete; with none, it still happens.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    if (TID != 0) return;
    __shared__ u64 bar;
    unsigned b = sa(&bar);
    mb_init(b, 1);
    asm volatile("cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%0];" :: "r"(b) : "memory");
    mb_wait_par(b, 0);
    out[0] = 1;
}
