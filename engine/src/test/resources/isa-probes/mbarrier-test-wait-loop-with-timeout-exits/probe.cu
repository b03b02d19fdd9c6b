// mbarrier-test-wait-loop-with-timeout-exits
// 9.7.13.15.16: test_wait is non-blocking; a poll loop with a %globaltimer timeout ends although the phase never completes.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    if (TID != 0) return;
    __shared__ u64 bar;
    unsigned b = sa(&bar);
    mb_init(b, 2);
    u64 s = mb_arrive(b);
    u64 t0, t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
    int done = 0;
    do {
        done = mb_test(b, s);
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    } while (!done && t - t0 < 20000);
    out[0] = 10 + done;
}
