// atom-vector-f32-add-from-every-thread
// 9.7.13.5: atom with vector type, ".v2 .v4 ... .f32: .add"; "the atomicity is guaranteed separately for each of the individual scalar elements".
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(float *out)
{
    // CUDA's atomicAdd(float2 *) / atomicAdd(float4 *) on sm_90: atom.global.v2/.v4.f32.add.
    atomicAdd((float2 *)out, make_float2(1.0f, 2.0f));
    atomicAdd((float4 *)(out + 4), make_float4(1.0f, 0.5f, 0.25f, 3.0f));
}
