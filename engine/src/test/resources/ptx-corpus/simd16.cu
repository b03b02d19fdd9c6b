// simd16: CUDA's 16-bit SIMD intrinsics, which nvcc (sm_90a) lowers to the packed 16-bit integer
// forms add.u16x2, add.s16x2 (with neg.s16 for __vsub2), min/max.{u16x2,s16x2} and, for the rest,
// plain 32-bit integer code. Each thread applies every intrinsic to its pair (a[i], b[i]).
#include <cstdint>

constexpr int FORMS = 10;

extern "C" __global__ void simd16(const uint32_t* a, const uint32_t* b, uint32_t* out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    uint32_t x = a[i], y = b[i];
    uint32_t* o = out + FORMS * i;
    o[0] = __vadd2(x, y);
    o[1] = __vsub2(x, y);
    o[2] = __vmaxs2(x, y);
    o[3] = __vmins2(x, y);
    o[4] = __vmaxu2(x, y);
    o[5] = __vminu2(x, y);
    o[6] = __vabsdiffu2(x, y);
    o[7] = __vneg2(x);
    o[8] = __vcmpgtu2(x, y);
    o[9] = __vhaddu2(x, y);
}
