// mbarrier-generic-own-cta-address
// 9.7.13.15.9: with generic addressing, an address in the .shared::cta window names the same mbarrier.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    if (TID != 0) return;
    __shared__ u64 bar;
    u64 g = (u64)&bar;
    asm volatile("mbarrier.init.b64 [%0], 1;" :: "l"(g) : "memory");
    u64 st; asm volatile("mbarrier.arrive.b64 %0, [%1];" : "=l"(st) : "l"(g) : "memory");
    unsigned ok; asm volatile("{\n\t.reg .pred p;\n\tmbarrier.test_wait.b64 p, [%1], %2;\n\tselp.u32 %0, 1, 0, p;\n\t}" : "=r"(ok) : "l"(g), "l"(st) : "memory");
    out[0] = ok + 10 * mb_test_par(sa(&bar), 0);
}
