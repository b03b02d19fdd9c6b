// setmaxnreg-warp-of-the-warpgroup-exits-without-it
// 9.7.19.5: the same setmaxnreg instruction must be executed by all warps in a warpgroup; warp 3 exits without it.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void __launch_bounds__(128, 1) probe(int *out)
{
    if (WARP == 3) return;
    asm volatile("setmaxnreg.dec.sync.aligned.u32 40;" ::: "memory");
    out[TID] = 1;
}
