package io.barrierscope.exec;

import io.barrierscope.ptx.ScalarType;
import java.util.List;

/**
 * {@code cvt.rs{.relu}{.satfinite}.{f16x2,bf16x2}.f32 d, a, b, rbits} (PTX ISA 9.7.9.21, the
 * {@code .rs} rounding modifier): stochastic rounding with caller-supplied random bits. Each
 * result is rounded toward or away from zero by the carry out of adding its random bits to the
 * discarded mantissa bits of the input ({@link FloatFormat#encodeStochastic}). {@code a} goes to
 * the upper half and takes the upper 16 bits of {@code rbits} (for .f16x2 their 13 low bits),
 * {@code b} the lower half and lower bits. The ISA supports {@code .rs} on sm_100a and sm_103a
 * only, so other targets are refused, as are the x4 fp8/fp6/fp4 forms, whose split of the
 * random bits between a and b (and e and f) the ISA gives only in a figure.
 */
final class StochasticCvt {
    private StochasticCvt() {}

    /** The targets the ISA lists for the .rs rounding mode. */
    static final List<String> TARGETS = List.of("sm_100a", "sm_103a");

    static Op compile(CompileContext c, ScalarType dt, ScalarType st, boolean relu, boolean satfinite) {
        if (c.targets().stream().noneMatch(TARGETS::contains)) {
            throw c.unsupported("the .rs rounding mode needs target sm_100a or sm_103a; the module targets "
                    + (c.targets().isEmpty() ? "none" : String.join(", ", c.targets())));
        }
        if ((dt != ScalarType.F16X2 && dt != ScalarType.BF16X2) || st != ScalarType.F32) {
            throw c.unsupported(".rs converts a pair of .f32 to .f16x2 or .bf16x2 (d, a, b, rbits)");
        }
        if (c.has(".ftz") || c.has(".sat")) throw c.unsupported(".ftz and .sat are not cvt.rs modifiers");
        c.expectOperands(4, 4);
        if (!(c.operand(3) instanceof io.barrierscope.ptx.Operand.Reg)) throw c.unsupported("rbits is a .b32 register operand");
        boolean half = dt == ScalarType.F16X2;
        FloatFormat f = half ? FloatFormat.F16 : FloatFormat.BF16;
        int width = half ? 13 : 16; // f32 keeps 23 mantissa bits: 13 are discarded for f16, 16 for bf16
        int d = c.dst(0);
        Src a = c.src(1, ScalarType.F32);
        Src b = c.src(2, ScalarType.F32);
        Src rb = c.src(3, ScalarType.B32);
        return new FnOp((m, th) -> {
            long r = rb.get(m, th);
            long hi = one(f, Values.f32(a.get(m, th)), (int) (r >>> 16) & 0xFFFF, width, relu, satfinite);
            long lo = one(f, Values.f32(b.get(m, th)), (int) r & 0xFFFF, width, relu, satfinite);
            if (d >= 0) m.setReg(th, d, (hi << 16) | lo);
        });
    }

    /** One element; only the {@code width} low bits of its 16 random bits are used (for f16 the ISA's 3 MSBs are 0). */
    private static long one(FloatFormat f, float x, int rbits, int width, boolean relu, boolean satfinite) {
        int bits = f.encodeStochastic(x, rbits, width, satfinite);
        if (relu) bits = f.isNaN(bits) ? f.canonicalNaN() : (bits & f.signBit()) != 0 ? 0 : bits;
        return bits & 0xFFFFL;
    }

}
