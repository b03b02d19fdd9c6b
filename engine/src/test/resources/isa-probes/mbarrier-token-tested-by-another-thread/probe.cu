// mbarrier-token-tested-by-another-thread
// 9.7.13.15.16: state must be returned by an arrive on the same object in the current or preceding phase; any thread may test it.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    __shared__ u64 bar;
    __shared__ u64 tok;
    unsigned b = sa(&bar);
    if (TID == 0) {
        mb_init(b, 2);
        u64 s = mb_arrive(b);
        asm volatile("st.shared.u64 [%0], %1;" :: "r"(sa(&tok)), "l"(s) : "memory");
    }
    __syncthreads();
    if (TID == 32) {
        u64 s; asm volatile("ld.shared.u64 %0, [%1];" : "=l"(s) : "r"(sa(&tok)) : "memory");
        out[0] = mb_test(b, s);
        mb_arrive(b);
        out[1] = mb_test(b, s);
    }
}
