// atom-shared-add-from-every-thread-sums
// 9.7.13.5: atom on .shared is atomic too: 64 threads adding their tid to one shared word leave 2016.
// ISA probe: one normative sentence of PTX ISA 9.7.13 (or a section it leans on), run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    __shared__ unsigned w;
    if (TID == 0) asm volatile("st.shared.u32 [%0], 0;" :: "r"(sa(&w)) : "memory");
    __syncthreads();
    unsigned old;
    asm volatile("atom.shared.add.u32 %0, [%1], %2;" : "=r"(old) : "r"(sa(&w)), "r"(TID) : "memory");
    __syncthreads();
    unsigned v;
    asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v) : "r"(sa(&w)) : "memory");
    if (TID == 0) out[0] = (int)v;
}