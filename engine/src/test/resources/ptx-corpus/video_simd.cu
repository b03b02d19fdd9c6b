// video_simd: CUDA intrinsics that nvcc (sm_90a) lowers to SIMD video instructions: vabsdiff4 (with
// a merge) for the byte absolute differences, vabsdiff4.add and vabsdiff2.add for the sums of
// absolute differences. Each thread applies every intrinsic to its pair (a[i], b[i]).
#include <cstdint>

constexpr int FORMS = 7;

extern "C" __global__ void video_simd(const uint32_t* a, const uint32_t* b, uint32_t* out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    uint32_t x = a[i], y = b[i];
    uint32_t* o = out + FORMS * i;
    o[0] = __vabsdiffs4(x, y);
    o[1] = __vabsdiffu4(x, y);
    o[2] = __vsads4(x, y);
    o[3] = __vsadu4(x, y);
    o[4] = __vsads2(x, y);
    o[5] = __vsadu2(x, y);
    o[6] = __vabsdiffs2(x, y);
}
