// atom-exch-b128
// 9.7.13.5: atom.exch.b128 exchanges a 16-byte location atomically and returns its old value.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    if (TID != 0) return;
    __shared__ __align__(16) u64 v[2];
    unsigned x = sa(&v[0]);
    asm volatile("st.shared.v2.u64 [%0], {%1, %2};" :: "r"(x), "l"(1ull), "l"(2ull) : "memory");
    u64 lo, hi;
    asm volatile("{\n\t.reg .b128 d, s;\n\tmov.b128 s, {%2, %3};\n\tatom.shared.exch.b128 d, [%4], s;\n\tmov.b128 {%0, %1}, d;\n\t}" : "=l"(lo), "=l"(hi) : "l"(3ull), "l"(4ull), "r"(x) : "memory");
    out[0] = (int)lo; out[1] = (int)hi;
    asm volatile("ld.shared.v2.u64 {%0, %1}, [%2];" : "=l"(lo), "=l"(hi) : "r"(x) : "memory");
    out[2] = (int)lo; out[3] = (int)hi;
}
