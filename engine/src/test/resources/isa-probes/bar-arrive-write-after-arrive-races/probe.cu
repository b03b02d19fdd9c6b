// bar-arrive-write-after-arrive-races
// 9.7.13.1: arrive orders the accesses before it; a write after bar.arrive is not ordered before the consumer's read.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    __shared__ int s[32];
    if (WARP == 0) { asm volatile("bar.arrive 1, 64;" ::: "memory"); asm volatile("st.shared.u32 [%0], %1;" :: "r"(sa(&s[LANE])), "r"(LANE + 1) : "memory"); }
    else { asm volatile("bar.sync 1, 64;" ::: "memory"); int x; asm volatile("ld.shared.u32 %0, [%1];" : "=r"(x) : "r"(sa(&s[LANE])) : "memory"); out[LANE] = x; }
}
