// fence-proxy-async-generic-release-does-not-cover-global-source
// 9.7.13.4: "When .sync_restrict is .sync_restrict::shared::cta ... the effect of the fence only applies to operations performed on objects in .shared::cta state space."
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    __shared__ __align__(16) int dst[4];
    __shared__ u64 bar;
    unsigned b = sa(&bar);
    asm volatile("st.global.u32 [%0], %1;" :: "l"(out + 4), "r"(5) : "memory");
    asm volatile("fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster;" ::: "memory");
    mb_init(b, 1);
    mb_arrive_tx(b, 16);
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], 16, [%2];"
                 :: "r"(sa(dst)), "l"(out + 4), "r"(b) : "memory");
    mb_wait_par(b, 0);
}
