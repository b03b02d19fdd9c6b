// bulk-load-of-global-written-by-generic-store-after-proxy-fence
// 9.7.13.4 (proxy fences): fence.proxy.async orders the thread's generic write of global before the bulk copy's async-proxy read of it.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out, int *in)
{
    __shared__ __align__(16) int s[4];
    __shared__ u64 bar;
    if (TID != 0) return;
    for (int i = 0; i < 4; i++) asm volatile("st.global.u32 [%0], %1;" :: "l"(in + i), "r"(50 + i) : "memory");
    asm volatile("fence.proxy.async.global;" ::: "memory");
    unsigned b = sa(&bar);
    mb_init(b, 1);
    mb_arrive_tx(b, 16);
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], 16, [%2];" :: "r"(sa(s)), "l"(in), "r"(b) : "memory");
    mb_wait_par(b, 0);
    for (int i = 0; i < 4; i++) out[i] = s[i];
}
