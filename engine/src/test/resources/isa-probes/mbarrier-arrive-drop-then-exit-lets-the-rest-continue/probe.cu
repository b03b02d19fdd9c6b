// mbarrier-arrive-drop-then-exit-lets-the-rest-continue
// 9.7.13.15.14: a thread that wants to exit can use arrive_drop to drop itself; later phases complete without it.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    __shared__ u64 bar;
    unsigned b = sa(&bar);
    if (TID == 0) mb_init(b, 2);
    __syncthreads();
    if (TID == 32) { asm volatile("mbarrier.arrive_drop.shared::cta.b64 _, [%0];" :: "r"(b) : "memory"); return; }
    if (TID == 0) {
        int n = 0;
        for (unsigned i = 0; i < 3; i++) { mb_arrive(b); mb_wait_par(b, i & 1); n++; }
        out[0] = n;
    }
}
