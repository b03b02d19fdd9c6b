// cp-async-mbarrier-arrive-counts-net-zero
// 9.7.13.15.15: without .noinc pending is raised by 1 first, a net-zero change; the phase needs the thread's own arrive too.
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
    asm volatile("cp.async.mbarrier.arrive.shared::cta.b64 [%0];" :: "r"(b) : "memory");
    u64 st = mb_arrive(b);
    mb_wait(b, st);
    out[0] = s[0];
}
