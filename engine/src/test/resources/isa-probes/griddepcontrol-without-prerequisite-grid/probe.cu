// griddepcontrol-without-prerequisite-grid
// 9.7.13.13: .wait waits until all prerequisite grids in flight have completed; with none it returns at once.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    asm volatile("griddepcontrol.wait;" ::: "memory");
    out[TID] = 1;
    asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
}
