// mbarrier-try-wait-token-with-suspend-hint
// 9.7.13.15.16: try_wait with state and suspendTimeHint returns True once the phase completes.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    __shared__ u64 bar;
    __shared__ int s[32];
    unsigned b = sa(&bar);
    if (TID == 0) mb_init(b, 32);
    __syncthreads();
    s[TID] = TID * 5;
    u64 st = mb_arrive(b);
    unsigned r = 0;
    while (!r) asm volatile("{\n\t.reg .pred p;\n\tmbarrier.try_wait.shared::cta.b64 p, [%1], %2, %3;\n\tselp.u32 %0, 1, 0, p;\n\t}" : "=r"(r) : "r"(b), "l"(st), "r"(1000u) : "memory");
    out[TID] = s[31 - TID];
}
