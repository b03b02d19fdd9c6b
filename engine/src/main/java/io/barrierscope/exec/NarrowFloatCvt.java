package io.barrierscope.exec;

import io.barrierscope.exec.FloatFormat.Round;
import io.barrierscope.ptx.ScalarType;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code cvt} to and from the narrow floating-point types f16, bf16, tf32, e4m3 and e5m2 and
 * their packed forms (PTX ISA 9.7.9.21). Every value is carried exactly (a double, or an integer
 * rounded to odd) and rounded once by {@link FloatFormat}. Packed results put the conversion of
 * the first source operand in the upper half. {@code .rs} (stochastic rounding): {@link StochasticCvt}.
 */
final class NarrowFloatCvt {
    private NarrowFloatCvt() {}

    /** A cvt operand type: a scalar type, or one of the fp8 pairs that are no register type. */
    private record Ty(ScalarType scalar, FloatFormat fp8) {
        String name() { return scalar != null ? scalar.ptxName() : fp8 == FloatFormat.E4M3 ? "e4m3x2" : "e5m2x2"; }
    }

    /** Whether the cvt names a narrow float type, so this class compiles it. */
    static boolean handles(CompileContext c) {
        for (String m : c.insn().modifiers()) {
            if (X4.contains(m) && !c.has(".rs")) throw c.unsupported(m + " appears only in cvt.rs forms");
            if (X4.contains(m)) throw c.unsupported("conversion to " + m + " is not modelled: it needs target sm_100a or sm_103a, "
                    + "and the ISA gives the random bits each of a, b, e, f uses only in a figure");
        }
        for (Ty t : types(c)) {
            if (t.fp8 != null) return true;
            switch (t.scalar) {
                case F16, F16X2, BF16, BF16X2, TF32: return true;
                default:
            }
        }
        return false;
    }

    /** The four-element fp8/fp6/fp4 types of cvt.rs (and no other cvt form). */
    private static final List<String> X4 = List.of(".e4m3x4", ".e5m2x4", ".e2m3x4", ".e3m2x4", ".e2m1x4");

    private static List<Ty> types(CompileContext c) {
        List<Ty> out = new ArrayList<>();
        for (String m : c.insn().modifiers()) {
            if (m.equals(".e4m3x2")) out.add(new Ty(null, FloatFormat.E4M3));
            else if (m.equals(".e5m2x2")) out.add(new Ty(null, FloatFormat.E5M2));
            else if (ScalarType.fromName(m) != null) out.add(new Ty(ScalarType.fromName(m), null));
        }
        return out;
    }

    static Op compile(CompileContext c) {
        List<Ty> ts = types(c);
        if (ts.size() != 2) throw c.error("cvt needs a destination and a source type, e.g. cvt.rn.f16.f32");
        Ty dt = ts.get(0);
        Ty st = ts.get(1);
        String rnd = null;
        for (String m : c.insn().modifiers()) {
            if (m.matches("\\.(rn|rz|rm|rp|rni|rzi|rmi|rpi|rna|rs)")) rnd = m.substring(1);
        }
        boolean relu = c.has(".relu");
        boolean satfinite = c.has(".satfinite");
        if ("rs".equals(rnd)) {
            if (dt.fp8 != null || st.fp8 != null) throw c.unsupported(".rs converts only to .f16x2, .bf16x2 and the x4 types");
            return StochasticCvt.compile(c, dt.scalar, st.scalar, relu, satfinite);
        }
        if (dt.fp8 != null) return toFp8(c, dt.fp8, st, rnd, relu, satfinite);
        if (st.fp8 != null) return fromFp8(c, dt, st.fp8, rnd, relu, satfinite);
        if (dt.scalar == ScalarType.F16X2 || dt.scalar == ScalarType.BF16X2) return pairFromF32(c, dt.scalar, st.scalar, rnd, relu, satfinite);
        if (st.scalar == ScalarType.F16X2 || st.scalar == ScalarType.BF16X2) {
            throw c.unsupported("conversion of ." + st.name() + " to ." + dt.name() + " is not an ISA form");
        }
        if (dt.scalar == ScalarType.TF32) return toTf32(c, st.scalar, rnd, relu, satfinite);
        if (st.scalar == ScalarType.TF32) throw c.unsupported("conversion from .tf32 is not an ISA form");
        return scalar(c, dt.scalar, st.scalar, rnd, relu, satfinite);
    }


    static FloatFormat format(ScalarType t) {
        return switch (t) {
            case F16, F16X2 -> FloatFormat.F16;
            case BF16, BF16X2 -> FloatFormat.BF16;
            case TF32 -> FloatFormat.TF32;
            default -> null;
        };
    }

    /** Applies .relu to a finished pattern: negative results become +0, NaN the canonical NaN. */
    private static int relu(FloatFormat f, int bits) {
        if (f.isNaN(bits)) return f.canonicalNaN();
        return (bits & f.signBit()) != 0 ? 0 : bits;
    }

    private static int round(FloatFormat f, double v, Round r, boolean relu, boolean satfinite) {
        int bits = f.encode(v, r, satfinite);
        return relu ? relu(f, bits) : bits;
    }

    /** cvt.rn.satfinite{.relu}.{e4m3x2,e5m2x2}.{f32 (d, a, b) | f16x2 (d, a) | bf16x2 (d, a)}. */
    private static Op toFp8(CompileContext c, FloatFormat f8, Ty st, String rnd, boolean relu, boolean satfinite) {
        if (!"rn".equals(rnd) || !satfinite) throw c.unsupported("conversion to ." + (f8 == FloatFormat.E4M3 ? "e4m3x2" : "e5m2x2")
                + " needs .rn.satfinite");
        int d = c.dst(0);
        if (st.scalar == ScalarType.F32) {
            c.expectOperands(3, 3);
            Src a = c.src(1, ScalarType.F32);
            Src b = c.src(2, ScalarType.F32);
            return new FnOp((m, th) -> {
                int hi = round(f8, Values.f32(a.get(m, th)), Round.RN, relu, true);
                int lo = round(f8, Values.f32(b.get(m, th)), Round.RN, relu, true);
                if (d >= 0) m.setReg(th, d, (hi << 8) | lo);
            });
        }
        if (st.scalar == ScalarType.F16X2 || st.scalar == ScalarType.BF16X2) {
            c.expectOperands(2, 2);
            Src a = c.src(1, ScalarType.B32);
            FloatFormat sf = format(st.scalar);
            return new FnOp((m, th) -> {
                long x = a.get(m, th);
                int hi = round(f8, sf.decode((int) (x >>> 16) & 0xFFFF), Round.RN, relu, true);
                int lo = round(f8, sf.decode((int) x & 0xFFFF), Round.RN, relu, true);
                if (d >= 0) m.setReg(th, d, (hi << 8) | lo);
            });
        }
        throw c.unsupported("conversion of ." + st.name() + " to fp8 is not modelled (sources: .f32 pair, .f16x2, .bf16x2)");
    }

    /** cvt.rn{.relu}.f16x2.{e4m3x2,e5m2x2} d, a: exact (every fp8 value is a half). */
    private static Op fromFp8(CompileContext c, Ty dt, FloatFormat f8, String rnd, boolean relu, boolean satfinite) {
        if (dt.scalar != ScalarType.F16X2 || !"rn".equals(rnd) || satfinite) {
            throw c.unsupported("fp8 converts only by cvt.rn{.relu}.f16x2." + (f8 == FloatFormat.E4M3 ? "e4m3x2" : "e5m2x2"));
        }
        c.expectOperands(2, 2);
        int d = c.dst(0);
        Src a = c.src(1, ScalarType.B16);
        return new FnOp((m, th) -> {
            long x = a.get(m, th);
            int hi = round(FloatFormat.F16, f8.decode((int) (x >>> 8) & 0xFF), Round.RN, relu, false);
            int lo = round(FloatFormat.F16, f8.decode((int) x & 0xFF), Round.RN, relu, false);
            if (d >= 0) m.setReg(th, d, ((long) hi << 16) | lo);
        });
    }

    /** cvt.{rn,rz}{.relu}{.satfinite}.{f16x2,bf16x2}.f32 d, a, b: a to the upper half. */
    private static Op pairFromF32(CompileContext c, ScalarType dt, ScalarType st, String rnd, boolean relu, boolean satfinite) {
        if (st != ScalarType.F32) throw c.unsupported("." + dt.ptxName() + " converts only from a pair of .f32");
        Round r = rnd == null ? null : Round.of(rnd);
        if (r != Round.RN && r != Round.RZ) throw c.unsupported("." + dt.ptxName() + " needs .rn or .rz");
        c.expectOperands(3, 3);
        FloatFormat f = format(dt);
        int d = c.dst(0);
        Src a = c.src(1, ScalarType.F32);
        Src b = c.src(2, ScalarType.F32);
        return new FnOp((m, th) -> {
            long hi = round(f, Values.f32(a.get(m, th)), r, relu, satfinite);
            long lo = round(f, Values.f32(b.get(m, th)), r, relu, satfinite);
            if (d >= 0) m.setReg(th, d, (hi << 16) | lo);
        });
    }

    /** cvt.rna{.satfinite}.tf32.f32, cvt.{rn,rz}{.satfinite}{.relu}.tf32.f32. */
    private static Op toTf32(CompileContext c, ScalarType st, String rnd, boolean relu, boolean satfinite) {
        Round r = rnd == null ? null : Round.of(rnd);
        if (st != ScalarType.F32 || (r != Round.RNA && r != Round.RN && r != Round.RZ) || (relu && r == Round.RNA)) {
            throw c.unsupported(".tf32 converts from .f32 by .rna{.satfinite} or .rn/.rz{.satfinite}{.relu}");
        }
        c.expectOperands(2, 2);
        int d = c.dst(0);
        Src a = c.src(1, ScalarType.F32);
        return new FnOp((m, th) -> {
            long bits = round(FloatFormat.TF32, Values.f32(a.get(m, th)), r, relu, satfinite) & 0xFFFFFFFFL;
            if (d >= 0) m.setReg(th, d, bits);
        });
    }

    /** Scalar cvt between f16/bf16 and f16, bf16, f32, f64 and the integer types. */
    private static Op scalar(CompileContext c, ScalarType dt, ScalarType st, String rnd, boolean relu, boolean satfinite) {
        c.expectOperands(2, 2);
        int d = c.dst(0);
        Src a = c.src(1, st);
        boolean ftz = c.has(".ftz");
        boolean sat = c.has(".sat");
        FloatFormat df = format(dt);
        if ((relu || satfinite) && (df == null || st != ScalarType.F32)) {
            throw c.unsupported(".relu and .satfinite apply to .f16/.bf16 results from .f32");
        }
        if (dt.isFloat()) {
            boolean intRound = rnd != null && rnd.endsWith("i");
            if (rnd != null && !intRound && Round.of(rnd) == null) throw c.unsupported("rounding ." + rnd);
            if (Round.of(rnd == null ? "rn" : rnd) == Round.RNA) throw c.unsupported(".rna converts only to .tf32");
            Round r = intRound || rnd == null ? Round.RN : Round.of(rnd);
            return new FnOp((m, th) -> {
                double v = read(a.get(m, th), st, ftz);
                if (intRound) v = ConvertOps.roundInt(v, rnd);
                if (sat) v = Double.isNaN(v) ? 0 : Math.max(0, Math.min(1, v));
                long bits;
                if (df != null) bits = round(df, v, r, relu, satfinite);
                else if (dt == ScalarType.F32) bits = flush(FloatFormat.F32.encode(v, r, false), ftz);
                else bits = Values.bits(v); // f64: every narrow value is exact
                if (d >= 0) m.setReg(th, d, bits);
            });
        }
        // To an integer: as ConvertOps does for f32, saturating, NaN to 0.
        if (rnd != null && !rnd.endsWith("i")) throw c.unsupported("float to integer needs .rni/.rzi/.rmi/.rpi");
        String mode = rnd == null ? "rzi" : rnd;
        ScalarType rt = c.regType(c.operand(0));
        int dw = Math.max(dt.bits(), rt == null ? 0 : rt.bits());
        return new FnOp((m, th) -> {
            double v = ConvertOps.roundInt(read(a.get(m, th), st, ftz), mode);
            long x = ConvertOps.floatToInt(v, dt);
            if (d >= 0) m.setReg(th, d, Values.trunc(Values.norm(Values.trunc(x, dt.bits()), dt), dw));
        });
    }

    /** .ftz on an f32 result: a subnormal becomes zero of the same sign. */
    private static long flush(int f32, boolean ftz) {
        if (ftz && FloatFormat.F32.isSubnormal(f32)) f32 &= 0x80000000;
        return f32 & 0xFFFFFFFFL;
    }

    /** A source value, exact (integers wider than 53 bits rounded to odd, which rounds on correctly). */
    private static double read(long raw, ScalarType st, boolean ftz) {
        FloatFormat f = format(st);
        if (f != null) return f.decode((int) raw);
        return switch (st) {
            case F32 -> FloatOps.read(raw, true, ftz);
            case F64 -> Values.f64(raw);
            default -> RoundToOdd.fromLong(Values.norm(raw, st), !st.isSigned());
        };
    }
}
