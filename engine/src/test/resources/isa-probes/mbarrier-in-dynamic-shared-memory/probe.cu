// mbarrier-in-dynamic-shared-memory
// 9.7.13.15.1: an mbarrier object is any 8-aligned .b64 in .shared, dynamically allocated shared memory included.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    extern __shared__ u64 dyn[];
    if (TID != 0) return;
    unsigned b = sa(&dyn[3]);
    mb_init(b, 2);
    u64 s = mb_arrive(b);
    out[0] = mb_test(b, s);
    mb_arrive(b);
    out[1] = mb_test(b, s);
}
