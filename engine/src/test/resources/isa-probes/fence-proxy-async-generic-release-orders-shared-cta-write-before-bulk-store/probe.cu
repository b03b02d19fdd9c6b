// fence-proxy-async-generic-release-orders-shared-cta-write-before-bulk-store
// 9.7.13.4: fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster orders the thread's generic writes of shared::cta before its later async-proxy accesses.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    __shared__ __align__(16) int src[4];
    for (int i = 0; i < 4; i++) asm volatile("st.shared.u32 [%0], %1;" :: "r"(sa(&src[i])), "r"(5 + i) : "memory");
    asm volatile("fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster;" ::: "memory");
    asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], 16;" :: "l"(out), "r"(sa(src)) : "memory");
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
    asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
}
