// mbarrier-try-wait-largest-hint-on-a-phase-that-never-completes
// 9.7.13.15.16: a suspended try_wait resumes after its time limit (suspendTimeHint 0xffffffff ns) with False if the phase has not completed.
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
    unsigned r; asm volatile("{\n\t.reg .pred p;\n\tmbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0, %2;\n\tselp.u32 %0, 1, 0, p;\n\t}" : "=r"(r) : "r"(b), "r"(0xffffffffu) : "memory");
    out[0] = r + 10;
}
