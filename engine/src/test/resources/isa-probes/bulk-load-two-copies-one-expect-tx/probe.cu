// bulk-load-two-copies-one-expect-tx
// 9.7.13.15.5/6: tx-count is set to the total of the phase's transactions; two 16-byte copies complete one 32-byte expectation.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out, const int *in)
{
    __shared__ __align__(16) int s[8];
    __shared__ u64 bar;
    if (TID != 0) return;
    unsigned b = sa(&bar);
    mb_init(b, 1);
    mb_arrive_tx(b, 32);
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], 16, [%2];" :: "r"(sa(s)), "l"(in), "r"(b) : "memory");
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], 16, [%2];" :: "r"(sa(s + 4)), "l"(in + 4), "r"(b) : "memory");
    mb_wait_par(b, 0);
    for (int i = 0; i < 8; i++) out[i] = s[i];
}
