package io.barrierscope.exec;

import io.barrierscope.diag.DiagnosticCode;
import io.barrierscope.ptx.Operand;
import io.barrierscope.ptx.ScalarType;
import java.util.List;

/**
 * {@code sust.p.{1d,2d,3d}{.v2,.v4}.b32{.trap,.clamp,.zero} [a, b], c} (PTX ISA 9.7.11.2): a
 * formatted store of 32-bit values to one surface sample. x is a sample index, not a byte offset;
 * the source elements are R, G, B, A (our channels x, y, z, w) and are read as .f32 for a float
 * format, .u32 for an unsigned and .s32 for a signed one, then converted to the channel format.
 * Source elements past the format's channels are ignored. What the ISA leaves without a meaning
 * is {@code surface-format}, never given one: fewer source elements than the format has channels
 * (the others "will be written with an unpredictable value"), and a value the channel cannot hold
 * exactly (the ISA names no rounding or saturation): an integer out of the channel's range, an
 * f32 that is no f16 (inexact, out of range or NaN). Nothing is written then. The ISA gives
 * sust.p no layered geometry: {@code .a1d}/{@code .a2d} are refused by name.
 */
final class FormattedSurfaceOp {
    private FormattedSurfaceOp() {}

    static Op compile(CompileContext c) {
        String mn = c.insn().mnemonic();
        if (c.has(".a1d") || c.has(".a2d")) throw c.unsupported("the ISA gives sust.p only .1d, .2d and .3d");
        int dims = TexOp.geometry(c);
        if (dims == 0) throw c.unsupported("only .1d, .2d and .3d formatted surface stores are modelled");
        if (c.type() != ScalarType.B32) throw c.error(mn + ": sust.p stores .b32 elements");
        // The mode is no option here (9.7.11.2's syntax; ptxas: "Clamp modifier required"). Cache operators, which
        // ptxas takes on sust.p too, are accepted and ignored as for sust.b.
        int mode = SurfaceOp.mode(c, true);
        int vec = c.has(".v4") ? 4 : c.has(".v2") ? 2 : 1;
        c.expectOperands(2, 2);
        Src[] parts = TexOp.handleAndCoordinates(c, 0, TexOp.coordinateCount(dims, false), ScalarType.S32, false);
        Src handle = parts[0];
        Src[] coord = java.util.Arrays.copyOfRange(parts, 1, 1 + dims);
        Operand o1 = c.operand(1);
        List<Operand> el = o1 instanceof Operand.Vector v ? v.elements() : List.of(o1);
        if (el.size() != vec) throw c.error(mn + ": needs " + vec + " source values, found " + el.size());
        Src[] v = new Src[vec];
        for (int i = 0; i < vec; i++) v[i] = c.src(el.get(i), ScalarType.B32);
        return new MemoryOps.CheckedOp((m, th) -> {
            long h = handle.get(m, th);
            TextureObject o = SurfaceOp.object(m, h, th, dims, false, mn);
            long[] at = SurfaceOp.coordinates(m, th, coord);
            // Located first: a store .zero drops has no conversion to judge.
            long addr = SurfaceOp.locate(o, at, dims, o.texelBytes(), true, mode, h, mn);
            if (addr < 0) return;
            int channels = 0;
            while (channels < 4 && o.bits()[channels] != 0) channels++;
            if (vec < channels) {
                throw new MemoryFault(DiagnosticCode.SURFACE_FORMAT, h, mn + ": " + vec + " source element(s) for a sample of "
                        + channels + " channels; the ISA writes the others with an unpredictable value");
            }
            long[] bits = new long[channels];
            for (int k = 0; k < channels; k++) bits[k] = convert(o, k, v[k].get(m, th) & 0xFFFFFFFFL, h, mn);
            int off = 0;
            for (int k = 0; k < channels; k++) {
                int bytes = o.bits()[k] / 8;
                m.memory.store(Space.GLOBAL, addr + off, bytes, bits[k], th);
                off += bytes;
            }
        });
    }

    /** Source element {@code raw} (32 bits) as channel {@code k} of the sample format stores it, or surface-format. */
    static long convert(TextureObject o, int k, long raw, long h, String mn) {
        int b = o.bits()[k];
        switch (o.kind()) {
            case TextureObject.FLOAT -> {
                if (b == 32) return raw;
                float f = Float.intBitsToFloat((int) raw);
                int half = halfExactly(f);
                if (b == 16 && half >= 0) return half;
                throw new MemoryFault(DiagnosticCode.SURFACE_FORMAT, h, mn + ": channel " + "RGBA".charAt(k) + " (" + b + "-bit float) "
                        + "cannot hold " + f + " exactly; the ISA names no rounding for the conversion");
            }
            case TextureObject.UNSIGNED -> {
                if (b == 32 || raw < 1L << b) return raw;
                throw new MemoryFault(DiagnosticCode.SURFACE_FORMAT, h, mn + ": channel " + "RGBA".charAt(k) + " (" + b
                        + "-bit unsigned) cannot hold " + raw + "; the ISA names neither truncation nor saturation");
            }
            case TextureObject.SIGNED -> {
                long s = (int) raw;
                if (b == 32 || (s >= -(1L << (b - 1)) && s < 1L << (b - 1))) return s & ((1L << b) - 1);
                throw new MemoryFault(DiagnosticCode.SURFACE_FORMAT, h, mn + ": channel " + "RGBA".charAt(k) + " (" + b
                        + "-bit signed) cannot hold " + s + "; the ISA names neither truncation nor saturation");
            }
            default -> throw new MemoryFault(DiagnosticCode.TEXTURE_MISUSE, h, mn + ": the surface's channel kind " + o.kind()
                    + " is none of signed, unsigned, float");
        }
    }

    /** The f16 bits of {@code f} when f16 holds it exactly (zeros and infinities too), else -1 (NaN, inexact, too large). */
    static int halfExactly(float f) {
        int sign = (Float.floatToRawIntBits(f) >>> 16) & 0x8000;
        if (Float.isNaN(f)) return -1;
        if (Float.isInfinite(f)) return sign | 0x7C00;
        float a = Math.abs(f);
        if (a == 0) return sign;
        int e = Math.getExponent(a);
        if (e > 15) return -1;
        if (e >= -14) {
            int mant = Float.floatToRawIntBits(a) & 0x7FFFFF;
            if ((mant & 0x1FFF) != 0) return -1;
            return sign | (e + 15) << 10 | mant >>> 13;
        }
        // Subnormal f16: an integer multiple of 2^-24 below 2^-14 (scalb is exact here).
        float m = Math.scalb(a, 24);
        if (m != Math.rint(m)) return -1;
        return sign | (int) m;
    }
}
