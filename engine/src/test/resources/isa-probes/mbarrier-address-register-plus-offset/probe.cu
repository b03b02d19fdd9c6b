// mbarrier-address-register-plus-offset
// 9.7.13.15.9 (Addresses as Operands): [reg+imm] addresses the object at reg+imm; two objects 8 bytes apart are independent.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    if (TID != 0) return;
    __shared__ u64 bars[2];
    unsigned b = sa(&bars[0]);
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 2;" :: "r"(b) : "memory");
    asm volatile("mbarrier.init.shared::cta.b64 [%0+8], 1;" :: "r"(b) : "memory");
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0+8];" :: "r"(b) : "memory");
    out[0] = mb_test_par(b + 8, 0);
    out[1] = mb_test_par(b, 0);
}
