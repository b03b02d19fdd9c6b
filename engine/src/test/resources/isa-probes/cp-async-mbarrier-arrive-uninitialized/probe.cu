// cp-async-mbarrier-arrive-uninitialized
// 9.7.13.15: performing any mbarrier operation except init (here cp.async.mbarrier.arrive) on an uninitialized object is undefined.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    if (TID != 0) return;
    __shared__ u64 bar;
    unsigned b = sa(&bar);
    asm volatile("cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%0];" :: "r"(b) : "memory");
    out[0] = 1;
}
