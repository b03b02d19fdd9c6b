// bulk-store-wait-group-read-1-frees-the-older-group
// 9.7.9.25.6 (bulk async-groups): wait_group.read 1 waits until at most the newest group is pending; the older group's source may then be overwritten.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    __shared__ __align__(16) int s[8];
    if (TID != 0) return;
    for (int i = 0; i < 8; i++) s[i] = 100 + i;
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], 16;" :: "l"(out), "r"(sa(s)) : "memory");
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
    asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], 16;" :: "l"(out + 4), "r"(sa(s + 4)) : "memory");
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
    asm volatile("cp.async.bulk.wait_group.read 1;" ::: "memory");
    s[0] = 7;
    asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
}
