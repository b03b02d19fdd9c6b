// cp-async-into-a-valid-mbarrier-object
// 9.7.13.15: performing any non-mbarrier operation on an initialized mbarrier object results in undefined behavior (a cp.async destination).
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out, const int *in)
{
    __shared__ u64 bar;
    if (TID != 0) return;
    unsigned b = sa(&bar);
    mb_init(b, 1);
    asm volatile("cp.async.ca.shared.global [%0], [%1], 8;" :: "r"(b), "l"(in) : "memory");
    asm volatile("cp.async.wait_all;" ::: "memory");
    out[0] = 1;
}
