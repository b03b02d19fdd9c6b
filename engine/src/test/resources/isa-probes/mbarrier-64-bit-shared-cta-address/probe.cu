// mbarrier-64-bit-shared-cta-address
// 9.7.13.15.9/13/16 (Addresses as Operands): a .shared::cta address held in a 64-bit register names the same object as its 32-bit form.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    if (TID != 0) return;
    __shared__ u64 bar;
    unsigned b = sa(&bar);
    u64 b64 = b;
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 2;" :: "l"(b64) : "memory");
    u64 s; asm volatile("mbarrier.arrive.shared::cta.b64 %0, [%1];" : "=l"(s) : "l"(b64) : "memory");
    unsigned r; asm volatile("{\n\t.reg .pred p;\n\tmbarrier.test_wait.parity.shared::cta.b64 p, [%1], 0;\n\tselp.u32 %0, 1, 0, p;\n\t}" : "=r"(r) : "l"(b64) : "memory");
    out[0] = r;
    mb_arrive(b);
    asm volatile("{\n\t.reg .pred p;\n\tmbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0;\n\tselp.u32 %0, 1, 0, p;\n\t}" : "=r"(r) : "l"(b64) : "memory");
    out[1] = r;
    asm volatile("mbarrier.inval.shared::cta.b64 [%0];" :: "l"(b64) : "memory");
    mb_init(b, 1);
    out[2] = mb_test_par(b, 0);
}
