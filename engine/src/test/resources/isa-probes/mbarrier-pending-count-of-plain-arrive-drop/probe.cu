// mbarrier-pending-count-of-plain-arrive-drop
// 9.7.13.15.17: state must come from a .noComplete arrive or arrive_drop.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    if (TID != 0) return;
    __shared__ u64 bar;
    unsigned b = sa(&bar);
    mb_init(b, 4);
    u64 s0; unsigned c0;
    asm volatile("mbarrier.arrive_drop.shared::cta.b64 %0, [%1];" : "=l"(s0) : "r"(b) : "memory");
    asm volatile("mbarrier.pending_count.b64 %0, %1;" : "=r"(c0) : "l"(s0));
    out[0] = c0;
}
