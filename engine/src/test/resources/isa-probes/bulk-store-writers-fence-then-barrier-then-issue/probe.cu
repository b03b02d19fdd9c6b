// bulk-store-writers-fence-then-barrier-then-issue
// 9.7.13.4: each writer's fence.proxy.async, then bar.sync, orders all writers' generic writes before one thread's bulk copy.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    __shared__ __align__(16) int s[32];
    s[TID] = 100 + TID;
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    if (TID != 0) return;
    asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], 128;" :: "l"(out), "r"(sa(s)) : "memory");
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
    asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
}
