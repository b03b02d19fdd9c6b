// cp-async-mbarrier-arrive-pending-overflow
// 9.7.13.15.15: the pending count after the increment must not exceed 2^20 - 1.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out, const int *in)
{
    if (TID != 0) return;
    __shared__ u64 bar;
    __shared__ int s[4];
    unsigned b = sa(&bar);
    mb_init(b, (1u << 20) - 1);
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" :: "r"(sa(&s[0])), "l"(in + 3) : "memory");
    asm volatile("cp.async.mbarrier.arrive.shared::cta.b64 [%0];" :: "r"(b) : "memory");
    out[0] = 1;
}
