// bulk-wait-group-0-does-not-wait-for-an-uncommitted-copy
// 9.7.9.25.6 (bulk async-groups): wait_group waits for committed bulk groups only; the CTA then exits while the uncommitted copy still reads its shared memory.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    __shared__ __align__(16) int s[4];
    if (TID != 0) return;
    for (int i = 0; i < 4; i++) s[i] = 100 + i;
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], 16;" :: "l"(out), "r"(sa(s)) : "memory");
    asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
}
