// mbarrier-sixty-four-objects
// 9.7.13.15: mbarrier objects are user defined and only limited by shared memory; 64 objects with counts 1..64 each complete independently.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    __shared__ u64 bars[64];
    if (TID != 0) return;
    int ok = 0;
    for (int i = 0; i < 64; i++) mb_init(sa(&bars[i]), i + 1);
    for (int i = 0; i < 64; i++) {
        if (i > 0) mb_arrive_n(sa(&bars[i]), i);
        ok += mb_test_par(sa(&bars[i]), 0) == 0;
    }
    for (int i = 0; i < 64; i++) { mb_arrive(sa(&bars[i])); ok += mb_test_par(sa(&bars[i]), 0); }
    out[0] = ok;
}
