// cp-async-mbarrier-arrive-noinc-and-own-arrive-cross-an-unobserved-phase
// 9.7.13.15.4: each phase must be observed complete by a wait before an arrive-on in the next; the asynchronous arrive-on of cp.async.mbarrier.arrive is one.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    if (TID != 0) return;
    __shared__ u64 bar;
    unsigned b = sa(&bar);
    mb_init(b, 1);
    // Two arrive-ons on a count-1 object with no wait between: whichever lands second is in phase 1.
    asm volatile("cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%0];" :: "r"(b) : "memory");
    mb_arrive(b);
    mb_wait_par(b, 0);
    out[0] = 1;
}
