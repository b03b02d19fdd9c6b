// mbarrier-try-wait-parity-hint-never-completes
// 9.7.13.15.16: try_wait returns False after its time limit while the phase is incomplete; the loop never ends.
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
    unsigned r = 0;
    while (!r) asm volatile("{\n\t.reg .pred p;\n\tmbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0, %2;\n\tselp.u32 %0, 1, 0, p;\n\t}" : "=r"(r) : "r"(b), "r"(500u) : "memory");
    out[0] = 1;
}
