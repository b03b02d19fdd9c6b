// relaxed-store-acquire-load-races
// 9.7.13.4 (memory model): an acquire load synchronizes only with a release; a relaxed flag store releases nothing, so the data races.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    int *data = out + 64, *flag = out + 65;
    if (TID == 32) {
        *data = 42;
        asm volatile("st.relaxed.gpu.global.u32 [%0], 1;" :: "l"(flag) : "memory");
    }
    if (TID == 0) {
        unsigned f = 0;
        while (!f) asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(f) : "l"(flag) : "memory");
        out[0] = *data;
    }
}
