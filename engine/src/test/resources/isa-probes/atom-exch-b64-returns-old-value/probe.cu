// atom-exch-b64-returns-old-value
// 9.7.13.5: exch(r, s) = s on a .b64 location; atom returns the old 64-bit value.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    if (TID != 0) return;
    __shared__ u64 v;
    unsigned x = sa(&v);
    u64 r;
    asm volatile("st.shared.u64 [%0], %1;" :: "r"(x), "l"(0x100000002ull) : "memory");
    asm volatile("atom.shared.exch.b64 %0, [%1], %2;" : "=l"(r) : "r"(x), "l"(0x300000004ull) : "memory");
    out[0] = (int)(r >> 32); out[1] = (int)r;
    asm volatile("ld.shared.u64 %0, [%1];" : "=l"(r) : "r"(x) : "memory");
    out[2] = (int)(r >> 32); out[3] = (int)r;
}
