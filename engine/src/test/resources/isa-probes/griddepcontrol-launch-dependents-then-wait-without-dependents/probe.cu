// griddepcontrol-launch-dependents-then-wait-without-dependents
// 9.7.13.13: launch_dependents only signals that dependents may be scheduled; with no prerequisite grid, wait returns at once.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
    asm volatile("griddepcontrol.wait;" ::: "memory");
    out[TID] = 1;
}
