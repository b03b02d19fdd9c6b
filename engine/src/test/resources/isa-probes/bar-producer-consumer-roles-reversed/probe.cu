// bar-producer-consumer-roles-reversed
// 9.7.13.1 example: producer arrive 0 / sync 1, consumer sync 0 / arrive 1, in a loop.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    __shared__ int s[32];
    int acc = 0;
    for (int i = 1; i <= 4; i++) {
        if (WARP == 0) {
            s[LANE] = i * (LANE + 1);
            asm volatile("bar.arrive 0, 64;" ::: "memory");
            asm volatile("bar.sync 1, 64;" ::: "memory");
        } else {
            asm volatile("bar.sync 0, 64;" ::: "memory");
            acc += s[LANE];
            asm volatile("bar.arrive 1, 64;" ::: "memory");
        }
    }
    if (WARP == 1) out[LANE] = acc;
}
