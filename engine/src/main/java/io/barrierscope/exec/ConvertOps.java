package io.barrierscope.exec;

import io.barrierscope.ptx.Operand;
import io.barrierscope.ptx.ScalarType;
import java.util.List;

/** mov (with vector pack/unpack), cvt and cvta (PTX ISA 9.7.9). */
final class ConvertOps {
    private ConvertOps() {}

    static Op compile(CompileContext c, String opc) {
        return switch (opc) {
            case "mov" -> mov(c);
            case "cvt" -> cvt(c);
            case "cvta" -> cvta(c);
            default -> throw c.error("unsupported instruction " + c.insn().mnemonic());
        };
    }

    private static Op mov(CompileContext c) {
        c.expectOperands(2, 2);
        ScalarType t = c.type();
        if (t == ScalarType.B128) return B128Ops.mov(c);
        Op fast = FastMoveOp.mov(c, t);
        if (fast != null) return fast;
        int bits = t.bits();
        Operand d0 = c.operand(0);
        Operand s0 = c.operand(1);
        // Pack and unpack move 2 or 4 equal parts of the type (PTX ISA 9.7.9.10): another count
        // (3 into a .b64 split it into 21-bit parts) has no meaning to give.
        for (Operand o : List.of(d0, s0)) {
            if (o instanceof Operand.Vector v && (v.elements().size() != 2 && v.elements().size() != 4 || bits / v.elements().size() < 8)) {
                throw c.error("mov." + t.ptxName() + " packs or unpacks a vector of 2 or 4 parts of at least 8 bits, not "
                        + v.elements().size());
            }
        }
        if (s0 instanceof Operand.Vector v) {
            List<Operand> el = v.elements();
            int eb = bits / el.size();
            Src[] parts = new Src[el.size()];
            for (int i = 0; i < parts.length; i++) parts[i] = c.src(el.get(i), null);
            int d = c.dst(d0);
            return new FnOp((m, th) -> {
                long r = 0;
                for (int i = 0; i < parts.length; i++) r |= Values.trunc(parts[i].get(m, th), eb) << (eb * i);
                if (d >= 0) m.setReg(th, d, Values.trunc(r, bits));
            });
        }
        if (d0 instanceof Operand.Vector v) {
            List<Operand> el = v.elements();
            int eb = bits / el.size();
            int[] ds = new int[el.size()];
            for (int i = 0; i < ds.length; i++) ds[i] = c.dst(el.get(i));
            Src a = c.src(s0, t);
            return new FnOp((m, th) -> {
                long x = a.get(m, th);
                for (int i = 0; i < ds.length; i++) if (ds[i] >= 0) m.setReg(th, ds[i], Values.trunc(x >>> (eb * i), eb));
            });
        }
        int d = c.dst(d0);
        Src a = c.src(s0, t);
        return new FnOp((m, th) -> {
            if (d >= 0) m.setReg(th, d, Values.trunc(a.get(m, th), bits));
        });
    }

    private static Op cvt(CompileContext c) {
        if (NarrowFloatCvt.handles(c)) return NarrowFloatCvt.compile(c);
        c.expectOperands(2, 2);
        List<ScalarType> types = c.types();
        if (types.size() != 2) throw c.error("cvt needs a destination and a source type, e.g. cvt.u32.u64");
        ScalarType dt = types.get(0);
        ScalarType st = types.get(1);
        int d = c.dst(0);
        Src a = c.src(1, st);
        boolean sat = c.has(".sat");
        String rnd = null;
        for (String mm : c.insn().modifiers()) {
            if (mm.matches("\\.(rn|rz|rm|rp|rni|rzi|rmi|rpi|rna|rs)")) rnd = mm.substring(1);
        }
        boolean ftz = c.has(".ftz");
        String r = rnd;
        if (!isModelled(dt) || !isModelled(st)) {
            throw c.error("unsupported instruction " + c.insn().mnemonic() + " (conversion of ." + st.ptxName() + " to ."
                    + dt.ptxName() + " is not modelled)");
        }
        FloatFormat.Round directed = r == null || r.equals("rn") ? null : FloatFormat.Round.of(r);
        if (dt == ScalarType.F32 && directed != null && (st == ScalarType.F64 || !st.isFloat())) {
            return directedToF32(c, d, a, st, directed, ftz, sat);
        }
        if (dt.isFloat() && st.isFloat()) {
            if (r != null && !r.endsWith("i") && !r.equals("rn") && dt.bits() < st.bits()) {
                throw c.error("unsupported instruction " + c.insn().mnemonic() + " (directed rounding ." + r + ")");
            }
            boolean relu = c.has(".relu");
            boolean satfinite = c.has(".satfinite");
            if ((relu || satfinite) && dt != ScalarType.F16) {
                throw c.error("unsupported instruction " + c.insn().mnemonic() + " (.relu/.satfinite are modelled for .f16 only)");
            }
            return new FnOp((m, th) -> {
                double v = readFloat(a.get(m, th), st, ftz);
                if (r != null && r.endsWith("i")) v = roundInt(v, r);
                long bits = writeFloat(v, dt, ftz, sat);
                if (relu) bits = Double.isNaN(v) ? 0x7FFF : (bits & 0x8000) != 0 ? 0 : bits; // negative -> +0, NaN canonical
                if (satfinite && (bits & 0x7FFF) == 0x7C00) bits = (bits & 0x8000) | 0x7BFF; // +-inf -> +-MAX_NORM
                if (d >= 0) m.setReg(th, d, bits);
            });
        }
        if (dt == ScalarType.F64 && directed != null && !st.isFloat()) return directedToF64(c, d, a, st, directed, sat);
        if (dt.isFloat()) {
            if (r != null && !r.equals("rn")) {
                throw c.error("unsupported instruction " + c.insn().mnemonic() + " (directed rounding ." + r + ")");
            }
            boolean unsigned64 = st == ScalarType.U64;
            return new FnOp((m, th) -> {
                long x = Values.norm(a.get(m, th), st);
                if (dt == ScalarType.F32 && (st.bits() == 64)) {
                    // long -> float must round once, from the exact integer
                    float f = unsigned64 && x < 0 ? unsignedToFloat(x) : (float) x;
                    if (d >= 0) m.setReg(th, d, Values.bits(f));
                    return;
                }
                double v = unsigned64 && x < 0 ? unsignedToDouble(x) : (double) x;
                if (d >= 0) m.setReg(th, d, writeFloat(v, dt, ftz, sat));
            });
        }
        // A destination register wider than the type is sign-extended for signed types, else zero-extended
        // (PTX ISA "Operand Size Exceeding Instruction-Type Size").
        ScalarType rt = c.regType(c.operand(0));
        int dw = Math.max(dt.bits(), rt == null ? 0 : rt.bits());
        if (st.isFloat()) {
            String mode = r == null ? "rzi" : r;
            return new FnOp((m, th) -> {
                double v = roundInt(readFloat(a.get(m, th), st, ftz), mode);
                if (d >= 0) m.setReg(th, d, Values.trunc(Values.norm(Values.trunc(floatToInt(v, dt), dt.bits()), dt), dw));
            });
        }
        return new FnOp((m, th) -> {
            long x = Values.norm(a.get(m, th), st);
            if (sat) x = saturate(x, st, dt);
            if (d >= 0) m.setReg(th, d, Values.trunc(Values.norm(Values.trunc(x, dt.bits()), dt), dw));
        });
    }

    /**
     * cvt.{rz,rm,rp}.f32 from f64 or an integer: the exact source (an integer wider than 53 bits
     * rounded to odd, which rounds on correctly) rounded once toward the mode's direction.
     */
    private static Op directedToF32(CompileContext c, int d, Src a, ScalarType st, FloatFormat.Round r, boolean ftz, boolean sat) {
        return new FnOp((m, th) -> {
            long raw = a.get(m, th);
            double v = st == ScalarType.F64 ? Values.f64(raw) : RoundToOdd.fromLong(Values.norm(raw, st), !st.isSigned());
            long bits;
            if (Double.isNaN(v)) {
                bits = FloatOps.write(v, true, ftz, sat);
            } else {
                if (sat) v = Math.max(0, Math.min(1, v));
                int f = FloatFormat.F32.encode(v, r, false);
                if (ftz && FloatFormat.F32.isSubnormal(f)) f &= 0x80000000;
                bits = f & 0xFFFFFFFFL;
            }
            if (d >= 0) m.setReg(th, d, bits);
        });
    }

    /**
     * cvt.{rz,rm,rp}{.sat}.f64 from an integer: the exact integer rounded once in that direction;
     * .sat then clamps to [0, 1] as it does for .rn.
     */
    private static Op directedToF64(CompileContext c, int d, Src a, ScalarType st, FloatFormat.Round r, boolean sat) {
        boolean unsigned64 = st == ScalarType.U64;
        return new FnOp((m, th) -> {
            long x = Values.norm(a.get(m, th), st);
            boolean big = unsigned64 && x < 0;
            double rn = big ? unsignedToDouble(x) : (double) x;
            java.math.BigDecimal exact = big ? new java.math.BigDecimal(new java.math.BigInteger(Long.toUnsignedString(x)))
                    : java.math.BigDecimal.valueOf(x);
            double v = DirectedF64.step(rn, exact.compareTo(new java.math.BigDecimal(rn)), r);
            if (sat) v = Math.max(0.0, Math.min(1.0, v));
            if (d >= 0) m.setReg(th, d, Values.bits(v));
        });
    }

    private static boolean isModelled(ScalarType t) {
        return !(t == ScalarType.BF16 || t == ScalarType.BF16X2 || t == ScalarType.F16X2 || t == ScalarType.TF32
                || t == ScalarType.B128 || t == ScalarType.PRED);
    }

    /** An unsigned 64-bit value as a double, rounded once: halve keeping the dropped bit as a sticky bit. */
    private static double unsignedToDouble(long x) {
        return x >= 0 ? (double) x : (double) ((x >>> 1) | (x & 1)) * 2.0;
    }

    private static float unsignedToFloat(long x) {
        return x >= 0 ? (float) x : (float) ((x >>> 1) | (x & 1)) * 2.0f;
    }

    static double readFloat(long raw, ScalarType t, boolean ftz) {
        return switch (t) {
            case F16 -> Values.halfToFloat((int) raw & 0xFFFF);
            case F32 -> FloatOps.read(raw, true, ftz);
            default -> Values.f64(raw);
        };
    }

    static long writeFloat(double v, ScalarType t, boolean ftz, boolean sat) {
        if (t == ScalarType.F16) {
            if (sat) v = Double.isNaN(v) ? 0 : Math.max(0, Math.min(1, v));
            return Values.doubleToHalf(v) & 0xFFFFL; // directly: via float would round twice
        }
        return FloatOps.write(v, t == ScalarType.F32, ftz, sat);
    }

    static double roundInt(double v, String mode) {
        return switch (mode) {
            case "rni", "rn" -> Math.rint(v);
            case "rzi", "rz" -> v < 0 ? Math.ceil(v) : Math.floor(v);
            case "rmi", "rm" -> Math.floor(v);
            case "rpi", "rp" -> Math.ceil(v);
            default -> Math.rint(v);
        };
    }

    /** Float to integer saturates to the destination range, NaN to 0 (PTX ISA cvt). */
    static long floatToInt(double v, ScalarType dt) {
        if (Double.isNaN(v)) return 0;
        int bits = dt.bits();
        if (dt.isSigned()) {
            double lo = -Math.pow(2, bits - 1);
            double hi = Math.pow(2, bits - 1) - 1;
            return (long) Math.max(lo, Math.min(hi, v));
        }
        if (v <= 0) return 0;
        if (bits == 64) {
            if (v >= 18446744073709551615.0) return -1L;
            if (v >= 9.223372036854775807E18) return (long) (v - 9.223372036854775807E18) + Long.MIN_VALUE;
            return (long) v;
        }
        double hi = Math.pow(2, bits) - 1;
        return (long) Math.min(hi, v);
    }

    private static long saturate(long x, ScalarType st, ScalarType dt) {
        int bits = dt.bits();
        long lo;
        long hi;
        if (dt.isSigned()) {
            lo = bits == 64 ? Long.MIN_VALUE : -(1L << (bits - 1));
            hi = bits == 64 ? Long.MAX_VALUE : (1L << (bits - 1)) - 1;
        } else {
            lo = 0;
            hi = bits == 64 ? -1L : (1L << bits) - 1;
        }
        if (st == ScalarType.U64 && x < 0) return dt.isSigned() || bits < 64 ? hi : x;
        if (!dt.isSigned() && bits == 64) return x < 0 && st.isSigned() ? 0 : x;
        return Math.max(lo, Math.min(hi, x));
    }

    private static Op cvta(CompileContext c) {
        c.expectOperands(2, 2);
        boolean to = c.has(".to");
        int space = c.spaceOf();
        if (space == Space.GENERIC) throw c.error("cvta needs a state space such as .shared");
        ScalarType t = c.type();
        int bits = t.bits();
        int d = c.dst(0);
        Operand s0 = c.operand(1);
        if (space == Space.KERNEL_PARAM && c.function != c.program.kernel) {
            throw c.error("unsupported instruction " + c.insn().mnemonic() + " (generic addresses of a .func's parameters)");
        }
        long window = switch (space) {
            case Space.SHARED -> Space.SHARED_WINDOW;
            case Space.LOCAL -> Space.LOCAL_WINDOW;
            case Space.CONST -> Space.CONST_WINDOW;
            case Space.KERNEL_PARAM -> Space.PARAM_WINDOW;
            default -> 0;
        };
        Src a = c.src(s0, t);
        if (to) {
            String spaceName = Space.name(space);
            return new MemoryOps.CheckedOp((m, th) -> {
                long g = a.get(m, th);
                long r = g - window;
                if (window != 0 && (g < window || g >= window + Space.WINDOW_SIZE)) {
                    throw new MemoryFault(io.barrierscope.diag.DiagnosticCode.MEMORY_FAULT, g, "cvta.to." + spaceName
                            + ": generic address 0x" + Long.toHexString(g) + " is not in the " + spaceName + " window");
                }
                if (d >= 0) m.setReg(th, d, Values.trunc(r, bits));
            });
        }
        return new FnOp((m, th) -> {
            long x = a.get(m, th) & (bits == 32 ? 0xFFFFFFFFL : -1L);
            if (d >= 0) m.setReg(th, d, Values.trunc(x + window, bits));
        });
    }
}
