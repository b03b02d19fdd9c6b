// mbarrier-tx-outstanding-blocks-completion
// 9.7.13.15.6: the phase completes only when tx-count has reached zero.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    if (TID != 0) return;
    __shared__ u64 bar;
    unsigned b = sa(&bar);
    mb_init(b, 1);
    mb_arrive_tx(b, 64);
    mb_wait_par(b, 0);
    out[0] = 1;
}
