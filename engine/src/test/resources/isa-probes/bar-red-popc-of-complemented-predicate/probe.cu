// bar-red-popc-of-complemented-predicate
// 9.7.13.1: the c predicate (or its complement) from all threads in the CTA are combined; .popc counts the threads with a True predicate.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    unsigned n, a;
    // c = (TID < 10): !c is true for 54 of the 64 threads; .and of !c is false.
    asm volatile("{\n\t.reg .pred c, q;\n\tsetp.lt.u32 c, %2, 10;\n\tbar.red.popc.u32 %0, 1, !c;\n\t"
                 "bar.red.and.pred q, 2, !c;\n\tselp.u32 %1, 1, 0, q;\n\t}" : "=r"(n), "=r"(a) : "r"(TID) : "memory");
    if (TID == 63) { out[0] = n; out[1] = a; }
}
