// mbarrier-token-of-the-same-place-in-another-cta-of-the-grid
// 9.7.13.15.16: state must be returned by an arrive on the same mbarrier object; another CTA's object at the same offset is another object.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out, u64 *mail)
{
    if (TID != 0) return;
    __shared__ u64 bar;
    unsigned b = sa(&bar);
    mb_init(b, 2);
    if (blockIdx.x == 0) {
        // CTA 0's token, handed to CTA 1 through global memory (release/acquire flag in mail[1]).
        u64 s = mb_arrive(b);
        asm volatile("st.relaxed.gpu.global.u64 [%0], %1;" :: "l"(mail), "l"(s) : "memory");
        asm volatile("st.release.gpu.global.u64 [%0], 1;" :: "l"(mail + 1) : "memory");
    } else {
        u64 f = 0, s;
        while (!f) asm volatile("ld.acquire.gpu.global.u64 %0, [%1];" : "=l"(f) : "l"(mail + 1) : "memory");
        asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(s) : "l"(mail) : "memory");
        out[0] = 1 + mb_test(b, s);
    }
}
