// video_scalar: inline PTX video instructions (PTX ISA 9.7.18) in the forms nvcc passes through
// unchanged: scalar ops with byte/half-word selectors, .sat, secondary operations and merges,
// shifts, vmad with a negated c and a scale, vset, and SIMD forms with explicit selectors and
// masks. Each thread applies every form to its triple (a[i], b[i], c[i]).
#include <cstdint>

constexpr int FORMS = 12;

#define V3(name, text) \
    __device__ uint32_t name(uint32_t a, uint32_t b, uint32_t c) { uint32_t d; asm(text : "=r"(d) : "r"(a), "r"(b), "r"(c)); return d; }

V3(f0, "vadd.s32.u32.s32.sat %0, %1.b0, %2.h1;")
V3(f1, "vsub.u32.s32.s32.sat.max %0, %1.h1, %2.b2, %3;")
V3(f2, "vabsdiff.s32.s32.u32.sat %0.b1, %1.b3, %2.h0, %3;")
V3(f3, "vmin.u32.u32.u32.add %0, %1, %2, %3;")
V3(f4, "vshl.u32.u32.u32.clamp.add %0, %1, %2.b0, %3;")
V3(f5, "vshr.s32.s32.u32.wrap.min %0, %1.h1, %2, %3;")
V3(f6, "vmad.s32.s32.u32.sat %0, %1.h0, %2.b1, -%3;")
V3(f7, "vmad.u32.u32.u32.shr7 %0, %1, %2.h0, %3;")
V3(f8, "vset.s32.u32.ge.add %0, %1.b2, %2.b2, %3;")
V3(f9, "vset.u32.s32.lt %0.h1, %1, %2, %3;")
V3(f10, "vset4.s32.u32.gt.add %0.b31, %1.b7531, %2.b0246, %3;")
V3(f11, "vavrg2.s32.s32.u32 %0.h1, %1.h30, %2.h12, %3;")

extern "C" __global__ void video_scalar(const uint32_t* a, const uint32_t* b, const uint32_t* c, uint32_t* out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    uint32_t x = a[i], y = b[i], z = c[i];
    uint32_t* o = out + FORMS * i;
    o[0] = f0(x, y, z);
    o[1] = f1(x, y, z);
    o[2] = f2(x, y, z);
    o[3] = f3(x, y, z);
    o[4] = f4(x, y, z);
    o[5] = f5(x, y, z);
    o[6] = f6(x, y, z);
    o[7] = f7(x, y, z);
    o[8] = f8(x, y, z);
    o[9] = f9(x, y, z);
    o[10] = f10(x, y, z);
    o[11] = f11(x, y, z);
}
