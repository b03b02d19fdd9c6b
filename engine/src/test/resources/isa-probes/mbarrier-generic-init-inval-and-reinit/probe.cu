// mbarrier-generic-init-inval-and-reinit
// 9.7.13.15.9/10: with no state space init and inval use generic addressing; an address in the .shared::cta window names the object.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    if (TID != 0) return;
    __shared__ u64 bar;
    unsigned b = sa(&bar);
    u64 g = (u64)&bar;
    asm volatile("mbarrier.init.b64 [%0], 1;" :: "l"(g) : "memory");
    asm volatile("mbarrier.arrive.b64 _, [%0];" :: "l"(g) : "memory");
    unsigned r; asm volatile("{\n\t.reg .pred p;\n\tmbarrier.test_wait.parity.b64 p, [%1], 0;\n\tselp.u32 %0, 1, 0, p;\n\t}" : "=r"(r) : "l"(g) : "memory");
    out[0] = r;
    asm volatile("mbarrier.inval.b64 [%0];" :: "l"(g) : "memory");
    mb_init(b, 1);
    mb_arrive(b);
    out[1] = mb_test_par(b, 0);
    mb_inval(b);
}
