// mbarrier-arrive-drop-lowers-later-phases
// 9.7.13.15.14: arrive_drop decrements the expected count for all subsequent phases.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    __shared__ u64 bar;
    unsigned b = sa(&bar);
    if (TID == 0) mb_init(b, 2);
    __syncthreads();
    if (TID == 1) asm volatile("mbarrier.arrive_drop.shared::cta.b64 _, [%0];" :: "r"(b) : "memory");
    if (TID == 0) {
        mb_arrive(b);
        mb_wait_par(b, 0);
        u64 s = mb_arrive(b);
        out[0] = mb_test(b, s);
        s = mb_arrive(b);
        out[1] = mb_test(b, s);
    }
}
