// red-without-sem-is-relaxed-and-orders-no-data
// 9.7.13.6: "If the .sem qualifier is absent, .relaxed is assumed by default": a flag set by red alone publishes nothing.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    if (threadIdx.x != 0) return;
    if (blockIdx.x == 0) {
        asm volatile("st.global.u32 [%0], %1;" :: "l"(out + 1), "r"(42) : "memory");
        asm volatile("red.global.add.u32 [%0], 1;" :: "l"(out) : "memory");
    } else {
        unsigned f = 0;
        while (f == 0) asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(f) : "l"(out) : "memory");
        int v;
        asm volatile("ld.global.u32 %0, [%1];" : "=r"(v) : "l"(out + 1) : "memory");
        out[2] = v;
    }
}
