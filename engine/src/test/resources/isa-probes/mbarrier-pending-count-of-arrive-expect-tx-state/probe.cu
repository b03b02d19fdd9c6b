// mbarrier-pending-count-of-arrive-expect-tx-state
// 9.7.13.15.17: state must be the result of a prior .noComplete arrive or arrive_drop; an arrive.expect_tx state is not.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    if (TID != 0) return;
    __shared__ u64 bar;
    unsigned b = sa(&bar);
    mb_init(b, 2);
    u64 s = mb_arrive_tx(b, 0);
    unsigned c; asm volatile("mbarrier.pending_count.b64 %0, %1;" : "=r"(c) : "l"(s));
    out[0] = c;
}
