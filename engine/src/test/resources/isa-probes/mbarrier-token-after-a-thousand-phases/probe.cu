// mbarrier-token-after-a-thousand-phases
// 9.7.13.15.16: a state returned during the current phase tests False, and True once that phase completes, however many phases came before.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    if (TID != 0) return;
    __shared__ u64 bar;
    unsigned b = sa(&bar);
    mb_init(b, 2);
    int ok = 0;
    for (unsigned i = 0; i < 1000; i++) {
        u64 s = mb_arrive(b);
        ok += mb_test(b, s) == 0;
        mb_arrive(b);
        ok += mb_test(b, s);
    }
    out[0] = ok;
}
