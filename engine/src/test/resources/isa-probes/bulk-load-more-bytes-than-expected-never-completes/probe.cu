// bulk-load-more-bytes-than-expected-never-completes
// 9.7.13.15.6: the phase completes only when tx-count reaches zero; 16 expected and 32 delivered leave it at -16.
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
    mb_arrive_tx(b, 16);
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], 32, [%2];" :: "r"(sa(s)), "l"(in), "r"(b) : "memory");
    mb_wait_par(b, 0);
    out[0] = 1;
}
