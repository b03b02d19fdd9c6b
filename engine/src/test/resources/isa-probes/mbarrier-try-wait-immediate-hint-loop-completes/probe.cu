// mbarrier-try-wait-immediate-hint-loop-completes
// 9.7.13.15.16: suspendTimeHint may be an immediate; the try_wait loop ends when the other warp's arrival completes the phase.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    __shared__ u64 bar;
    unsigned b = sa(&bar);
    if (TID == 0) mb_init(b, 1);
    __syncthreads();
    if (TID == 32) mb_arrive(b);
    if (TID == 0) {
        unsigned r = 0;
        while (!r) asm volatile("{\n\t.reg .pred p;\n\tmbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0, 1000;\n\tselp.u32 %0, 1, 0, p;\n\t}" : "=r"(r) : "r"(b) : "memory");
        out[0] = r;
    }
}
