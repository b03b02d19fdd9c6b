// bar-arrive-count-above-cta-size-without-waiters-completes
// 9.7.13.1: barrier.arrive does not cause the executing thread to wait; a count no CTA reaches leaves the barrier incomplete but blocks nobody.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    asm volatile("bar.arrive 2, 128;" ::: "memory");
    out[TID] = 1;
}
