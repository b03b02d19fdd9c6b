// fence-release-acquire-flag-orders-data
// 9.7.13.4 (memory model): a release store read by an acquire load orders the writer's earlier store before the reader's later load.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    int *data = out + 64, *flag = out + 65;
    if (TID == 32) {
        *data = 42;
        asm volatile("st.release.gpu.global.u32 [%0], 1;" :: "l"(flag) : "memory");
    }
    if (TID == 0) {
        unsigned f = 0;
        while (!f) asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(f) : "l"(flag) : "memory");
        out[0] = *data;
    }
}
