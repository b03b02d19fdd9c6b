// bar-different-counts-in-successive-generations
// 9.7.13.1: the barrier is reinitialized on completion; the next generation may use another thread count.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    __shared__ int s[96];
    s[TID] = TID;
    if (WARP == 0) {
        asm volatile("bar.arrive 1, 64;" ::: "memory");
        asm volatile("bar.sync 3, 64;" ::: "memory");
    } else if (WARP == 1) {
        asm volatile("bar.sync 1, 64;" ::: "memory");
        asm volatile("bar.arrive 3, 64;" ::: "memory");
        asm volatile("bar.arrive 2, 64;" ::: "memory");
    } else {
        asm volatile("bar.sync 2, 64;" ::: "memory");
    }
    asm volatile("bar.sync 1, 96;" ::: "memory");
    out[TID] = s[95 - TID];
}
