// mbarrier-try-wait-once-returns-false-after-time-limit
// 9.7.13.15.16: a suspended try_wait resumes when the phase completes OR after the time limit (suspendTimeHint ns, else system-dependent); an incomplete phase gives False, not a hang.
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
    unsigned r1, r2, r3;
    asm volatile("{\n\t.reg .pred p;\n\tmbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0, %2;\n\tselp.u32 %0, 1, 0, p;\n\t}" : "=r"(r1) : "r"(b), "r"(100u) : "memory");
    asm volatile("{\n\t.reg .pred p;\n\tmbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0;\n\tselp.u32 %0, 1, 0, p;\n\t}" : "=r"(r2) : "r"(b) : "memory");
    asm volatile("{\n\t.reg .pred p;\n\tmbarrier.try_wait.shared::cta.b64 p, [%1], %2;\n\tselp.u32 %0, 1, 0, p;\n\t}" : "=r"(r3) : "r"(b), "l"(s) : "memory");
    mb_arrive(b);
    out[0] = r1; out[1] = r2; out[2] = r3; out[3] = mb_try_par(b, 0);
}
