// atom-64-bit-max-min-cas-add-on-the-sign-bit
// 9.7.13.5: .max on .u64 compares unsigned, .min on .s64 signed, .cas compares all 64 bits, .add wraps (the Semantics block).
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    unsigned long long *o = (unsigned long long *)out;
    o[0] = 0x8000000000000000ull;
    unsigned long long old = atomicMax(&o[0], 5ull);
    atomicMin((long long *)&o[1], -3ll);
    atomicCAS(&o[2], 0ull, 0x100000000ull);
    atomicAdd(&o[3], ~0ull);
    o[4] = old;
}
