// bar-sync-register-count-huge-multiple-of-32
// 9.7.13.1: b is a .u32 thread count, a multiple of the warp size; 0xffffffe0 threads can never arrive in a 64-thread CTA.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out, unsigned id)
{
    asm volatile("bar.sync 1, %0;" :: "r"(id) : "memory");
    out[TID] = 1;
}
