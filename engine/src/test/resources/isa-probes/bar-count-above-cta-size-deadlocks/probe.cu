// bar-count-above-cta-size-deadlocks
// 9.7.13.1: operand b specifies the number of threads participating; 128 threads never arrive in a 64-thread CTA.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    asm volatile("bar.sync 1, 128;" ::: "memory");
    out[TID] = 1;
}
