// bulk-load-into-a-valid-mbarrier-object
// 9.7.13.15: performing any non-mbarrier operation on an initialized mbarrier object results in undefined behavior (a bulk copy's destination).
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out, const int *in)
{
    __shared__ __align__(16) u64 area[2];
    __shared__ u64 done;
    if (TID != 0) return;
    unsigned a = sa(&area[0]), d = sa(&done);
    mb_init(a, 1);   // a valid object in the first 8 of the copy's 16 destination bytes
    mb_init(d, 1);
    mb_arrive_tx(d, 16);
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], 16, [%2];" :: "r"(a), "l"(in), "r"(d) : "memory");
    mb_wait_par(d, 0);
    out[0] = 1;
}
