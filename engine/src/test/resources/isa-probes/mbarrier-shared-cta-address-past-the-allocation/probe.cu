// mbarrier-shared-cta-address-past-the-allocation
// 9.7.13.15.9: an addr not in the .shared::cta window the CTA was given (64 KiB past its 8 bytes) is undefined.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    if (TID != 0) return;
    __shared__ u64 bar;
    unsigned b = sa(&bar) + 0x10000;
    mb_init(b, 1);
    out[0] = 1;
}
