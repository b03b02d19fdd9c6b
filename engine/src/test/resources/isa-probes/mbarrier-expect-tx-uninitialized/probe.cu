// mbarrier-expect-tx-uninitialized
// 9.7.13.15: performing any mbarrier operation except init on an uninitialized mbarrier object is undefined (expect_tx).
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    if (TID != 0) return;
    __shared__ u64 bar;
    mb_expect_tx(sa(&bar), 16);
    out[0] = 1;
}
