// mbarrier-generic-try-wait-token-with-hint
// 9.7.13.15.16: try_wait without a state space uses generic addressing; with state and suspendTimeHint it returns True once the phase completed.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    if (TID != 0) return;
    __shared__ u64 bar;
    unsigned b = sa(&bar);
    u64 g = (u64)&bar;
    mb_init(b, 1);
    u64 s = mb_arrive(b);
    unsigned r; asm volatile("{\n\t.reg .pred p;\n\tmbarrier.try_wait.b64 p, [%1], %2, 100;\n\tselp.u32 %0, 1, 0, p;\n\t}" : "=r"(r) : "l"(g), "l"(s) : "memory");
    out[0] = r;
}
