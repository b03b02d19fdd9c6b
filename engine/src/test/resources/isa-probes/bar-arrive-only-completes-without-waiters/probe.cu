// bar-arrive-only-completes-without-waiters
// 9.7.13.1: bar.arrive does not wait; arrivals of b threads complete the barrier with no waiter.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    asm volatile("bar.arrive 3, 64;" ::: "memory");
    asm volatile("bar.sync 4, 64;" ::: "memory");
    asm volatile("bar.arrive 3, 64;" ::: "memory");
    out[TID] = 1;
}
