// mbarrier-try-wait-hint-zero-on-incomplete-phase
// 9.7.13.15.16: a suspended try_wait resumes when the phase completes or after the time limit, here suspendTimeHint 0 ns: False while incomplete.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    if (TID != 0) return;
    __shared__ u64 bar;
    unsigned b = sa(&bar);
    mb_init(b, 2);
    mb_arrive(b);
    unsigned r0; asm volatile("{\n\t.reg .pred p;\n\tmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2, %3;\n\tselp.u32 %0, 1, 0, p;\n\t}" : "=r"(r0) : "r"(b), "r"(0u), "r"(0u) : "memory");
    out[0] = r0;
    mb_arrive(b);
    unsigned r1; asm volatile("{\n\t.reg .pred p;\n\tmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2, %3;\n\tselp.u32 %0, 1, 0, p;\n\t}" : "=r"(r1) : "r"(b), "r"(0u), "r"(0u) : "memory");
    out[1] = r1;
}
