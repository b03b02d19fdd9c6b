// cta-scope-release-does-not-reach-another-cta
// 9.7.13.4 (memory model): .cta scope covers the threads of one CTA; a release/acquire pair at .cta scope across two CTAs is not morally strong, so the data races.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    int *data = out + 64, *flag = out + 65;
    if (blockIdx.x == 1 && TID == 0) {
        *data = 42;
        asm volatile("st.release.cta.global.u32 [%0], 1;" :: "l"(flag) : "memory");
    }
    if (blockIdx.x == 0 && TID == 0) {
        unsigned f = 0;
        while (!f) asm volatile("ld.acquire.cta.global.u32 %0, [%1];" : "=r"(f) : "l"(flag) : "memory");
        out[0] = *data;
    }
}
