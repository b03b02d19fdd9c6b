// mbarrier-inval-then-try-wait-parity
// 9.7.13.15.10: any mbarrier operation except init on a location without a valid mbarrier object is undefined (try_wait.parity).
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    if (TID != 0) return;
    __shared__ u64 bar;
    unsigned b = sa(&bar);
    mb_init(b, 1);
    mb_inval(b);
    out[0] = mb_try_par(b, 0);
}
