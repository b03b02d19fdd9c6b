// late-copy-hang (BUG, explore test): the consumer warp gives the bulk copy one try_wait with a
// suspend-time hint and, if the tile has not landed by then, skips its work and exits. Warp 0
// (the producer) issues the copy and then waits on named barrier 1 for all 64 threads. When
// the copy lands within the time limit (every default schedule) the kernel completes; when it
// lands late (or try_wait returns false early, which the ISA allows) warp 1 exits, warp 0
// waits on barrier 1 forever: a deadlock only some async completion orders reach.
// Fix: loop on try_wait (CUTLASS ClusterBarrier::wait).
//
// Launch: grid 1, block 64, in = 0..63, out = 64 ints.

__device__ __forceinline__ unsigned smem_addr(const void *p)
{
    return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

extern "C" __global__ void late_copy(const int *in, int *out)
{
    __shared__ alignas(128) int tile[64];
    __shared__ alignas(8) unsigned long long full;
    unsigned t = threadIdx.x;
    unsigned bar = smem_addr(&full);

    if (t == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(bar) : "memory");
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    __syncthreads();

    if (t < 32) {
        if (t == 0) {
            asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], 256;" :: "r"(bar) : "memory");
            asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], 256, [%2];"
                         :: "r"(smem_addr(tile)), "l"(in), "r"(bar) : "memory");
        }
        asm volatile("barrier.sync 1, 64;" ::: "memory");   // waits for the consumer warp
        out[t] = t;
    } else {
        unsigned ready;
        // BUG: one try_wait, assuming the tile lands within the suspend time limit.
        asm volatile("{\n\t.reg .pred p;\n\t"
                     "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0, 5000;\n\t"
                     "selp.u32 %0, 1, 0, p;\n\t}"
                     : "=r"(ready) : "r"(bar) : "memory");
        if (!ready)
            return;                                      // gives up: warp 0 waits on barrier 1 forever
        out[t] = tile[t] * 2;
        asm volatile("barrier.sync 1, 64;" ::: "memory");
    }
}
