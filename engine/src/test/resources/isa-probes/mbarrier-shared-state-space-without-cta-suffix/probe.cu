// mbarrier-shared-state-space-without-cta-suffix
// 9.7.13.15.9-17 (syntax): .shared is .shared{::cta}; the ISA examples' init/arrive/test_wait/try_wait/pending_count/inval.shared forms work alike.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    if (TID != 0) return;
    __shared__ u64 bar;
    unsigned b = sa(&bar);
    asm volatile("mbarrier.init.shared.b64 [%0], 3;" :: "r"(b) : "memory");
    u64 s; asm volatile("mbarrier.arrive.noComplete.shared.b64 %0, [%1], 1;" : "=l"(s) : "r"(b) : "memory");
    unsigned c; asm volatile("mbarrier.pending_count.b64 %0, %1;" : "=r"(c) : "l"(s));
    asm volatile("mbarrier.arrive.shared.b64 %0, [%1], 2;" : "=l"(s) : "r"(b) : "memory");
    unsigned r1, r2;
    asm volatile("{\n\t.reg .pred p;\n\tmbarrier.test_wait.shared.b64 p, [%1], %2;\n\tselp.u32 %0, 1, 0, p;\n\t}" : "=r"(r1) : "r"(b), "l"(s) : "memory");
    asm volatile("{\n\t.reg .pred p;\n\tmbarrier.try_wait.parity.shared.b64 p, [%1], 0;\n\tselp.u32 %0, 1, 0, p;\n\t}" : "=r"(r2) : "r"(b) : "memory");
    asm volatile("mbarrier.inval.shared.b64 [%0];" :: "r"(b) : "memory");
    out[0] = c; out[1] = r1; out[2] = r2;
}
