// bulk-store-source-overwritten-after-read-wait
// 9.7.9.25.6 / 9.7.13.4: after cp.async.bulk.wait_group.read 0 the source has been read; overwriting it then is ordered and the copy holds the old bytes.
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
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
    asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
    s[0] = 7;
    asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
}
