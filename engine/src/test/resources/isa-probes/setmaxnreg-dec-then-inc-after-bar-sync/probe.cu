// setmaxnreg-dec-then-inc-after-bar-sync
// 9.7.19.5: warps release registers with .dec, synchronize explicitly, and then .inc takes them back from the CTA's pool.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void __launch_bounds__(128, 1) probe(int *out)
{
    asm volatile("setmaxnreg.dec.sync.aligned.u32 40;" ::: "memory");
    __syncthreads();
    asm volatile("setmaxnreg.inc.sync.aligned.u32 48;" ::: "memory");
    out[TID] = 1;
}
