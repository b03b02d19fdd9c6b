// cp-async-mbarrier-arrive-tracks-only-the-issuers-copies
// 9.7.13.15.15/16: each thread's cp.async.mbarrier.arrive tracks that thread's prior cp.async; after the wait both threads' copies are visible.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out, const int *in)
{
    __shared__ __align__(16) int s[8];
    __shared__ u64 bar;
    unsigned b = sa(&bar);
    if (TID == 0) mb_init(b, 2);
    __syncthreads();
    if (TID == 0 || TID == 32) {
        int k = TID ? 4 : 0;
        asm volatile("cp.async.ca.shared.global [%0], [%1], 16;" :: "r"(sa(s + k)), "l"(in + k) : "memory");
        asm volatile("cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%0];" :: "r"(b) : "memory");
    }
    if (TID == 0) {
        mb_wait_par(b, 0);
        for (int i = 0; i < 8; i++) out[i] = s[i];
    }
}
