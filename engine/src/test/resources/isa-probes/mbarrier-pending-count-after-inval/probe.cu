// mbarrier-pending-count-after-inval
// 9.7.13.15.17: pending_count reads the opaque state of a prior .noComplete arrive, not the object; it still gives 3 after the object is invalidated.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    if (TID != 0) return;
    __shared__ u64 bar;
    unsigned b = sa(&bar);
    mb_init(b, 3);
    u64 s; asm volatile("mbarrier.arrive.noComplete.shared::cta.b64 %0, [%1], 1;" : "=l"(s) : "r"(b) : "memory");
    mb_inval(b);
    unsigned c; asm volatile("mbarrier.pending_count.b64 %0, %1;" : "=r"(c) : "l"(s));
    out[0] = c;
}
