// bar-arrive-then-sync-hands-over-data
// 9.7.13.1: producers bar.arrive, consumers bar.sync on the same barrier and count; arrive orders prior writes for the participants.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    __shared__ int s[32];
    if (WARP == 0) { s[LANE] = 100 + LANE; asm volatile("bar.arrive 1, 64;" ::: "memory"); }
    else { asm volatile("bar.sync 1, 64;" ::: "memory"); out[LANE] = s[31 - LANE]; }
}
