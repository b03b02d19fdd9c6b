// mbarrier-pending-count-of-arbitrary-value
// 9.7.13.15.17: state must be the result of a prior .noComplete arrive or arrive_drop; a value no arrive returned is undefined.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    if (TID != 0) return;
    u64 s = 12345;
    unsigned c; asm volatile("mbarrier.pending_count.b64 %0, %1;" : "=r"(c) : "l"(s));
    out[0] = c;
}
