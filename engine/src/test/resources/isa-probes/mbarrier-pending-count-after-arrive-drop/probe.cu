// mbarrier-pending-count-after-arrive-drop
// 9.7.13.15.14/17: arrive_drop lowers expected (3 to 2) and arrives; the next phases start with 2 pending.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    if (TID != 0) return;
    __shared__ u64 bar;
    unsigned b = sa(&bar);
    mb_init(b, 3);
    asm volatile("mbarrier.arrive_drop.shared::cta.b64 _, [%0];" :: "r"(b) : "memory");
    u64 s1; asm volatile("mbarrier.arrive.noComplete.shared::cta.b64 %0, [%1], 1;" : "=l"(s1) : "r"(b) : "memory");
    unsigned c1; asm volatile("mbarrier.pending_count.b64 %0, %1;" : "=r"(c1) : "l"(s1));
    mb_arrive(b);
    out[0] = c1;
    out[1] = mb_test_par(b, 0);
    u64 s2; asm volatile("mbarrier.arrive.noComplete.shared::cta.b64 %0, [%1], 1;" : "=l"(s2) : "r"(b) : "memory");
    unsigned c2; asm volatile("mbarrier.pending_count.b64 %0, %1;" : "=r"(c2) : "l"(s2));
    out[2] = c2;
}
