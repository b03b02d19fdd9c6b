// mbarrier-parity-after-a-thousand-phases
// 9.7.13.15.4/16: phases 0, 1, 2, ... ; after 1000 phases parity 1 (phase 999) is the preceding phase and parity 0 (phase 1000) the current one.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    if (TID != 0) return;
    __shared__ u64 bar;
    unsigned b = sa(&bar);
    mb_init(b, 1);
    int ok = 0;
    for (unsigned i = 0; i < 1000; i++) {
        mb_arrive(b);
        ok += mb_test_par(b, i & 1);
    }
    out[0] = ok;
    out[1] = mb_test_par(b, 1);
    out[2] = mb_test_par(b, 0);
}
