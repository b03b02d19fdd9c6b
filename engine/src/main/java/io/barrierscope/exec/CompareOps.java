package io.barrierscope.exec;

import io.barrierscope.ptx.Operand;
import io.barrierscope.ptx.ScalarType;

/** setp, set, selp and slct (PTX ISA 9.7.6). */
final class CompareOps {
    private CompareOps() {}

    /** The unsigned integer comparisons (PTX ISA 9.3.2), which floating-point and half precision forms lack. */
    private static final java.util.Set<String> UNSIGNED_ONLY = java.util.Set.of("lo", "ls", "hi", "hs");

    @FunctionalInterface
    interface Cmp { boolean test(long a, long b); }

    static Op compile(CompileContext c, String opc) {
        return switch (opc) {
            case "setp" -> {
                if (!c.types().isEmpty()) {
                    ftzSource(c, null, c.types().get(0));
                    if (!c.types().get(0).isFloat()) integerCmp(c, cmpName(c), c.types().get(0));
                }
                Op fast = FastSetpOp.tryCompile(c);
                yield fast != null ? fast : setp(c);
            }
            case "set" -> set(c);
            case "selp" -> selp(c);
            case "slct" -> slct(c);
            default -> throw c.error("unsupported instruction " + c.insn().mnemonic());
        };
    }

    private static String cmpName(CompileContext c) {
        for (String m : c.insn().modifiers()) {
            switch (m) {
                case ".eq", ".ne", ".lt", ".le", ".gt", ".ge", ".lo", ".ls", ".hi", ".hs", ".equ", ".neu", ".ltu",
                        ".leu", ".gtu", ".geu", ".num", ".nan":
                    return m.substring(1);
                default:
            }
        }
        throw c.error(c.insn().mnemonic() + " needs a comparison such as .eq");
    }

    static Cmp comparison(CompileContext c, String cmp, ScalarType t) {
        if (t.isFloat()) {
            boolean f32 = t == ScalarType.F32;
            FloatFormat half = t == ScalarType.F16 || t == ScalarType.BF16 ? NarrowFloatCvt.format(t) : null;
            if (!f32 && t != ScalarType.F64 && half == null) throw c.error("unsupported instruction " + c.insn().mnemonic());
            // lo/ls/hi/hs are the unsigned integer comparisons (9.3.2): no floating-point meaning.
            if (UNSIGNED_ONLY.contains(cmp)) {
                throw c.error(c.insn().mnemonic() + ": ." + cmp + " is an unsigned integer comparison, with no meaning for ." + t.ptxName());
            }
            // .ftz (f16 and f32): subnormal inputs compare as zero of the same sign.
            boolean ftz = (half != null || f32) && c.has(".ftz");
            return (x, y) -> {
                double a = half != null ? HalfOps.value(half, (int) x & 0xFFFF, ftz) : FloatOps.read(x, f32, ftz);
                double b = half != null ? HalfOps.value(half, (int) y & 0xFFFF, ftz) : FloatOps.read(y, f32, ftz);
                boolean nan = Double.isNaN(a) || Double.isNaN(b);
                return switch (cmp) {
                    case "eq" -> !nan && a == b;
                    case "ne" -> !nan && a != b;
                    case "lt" -> !nan && a < b;
                    case "le" -> !nan && a <= b;
                    case "gt" -> !nan && a > b;
                    case "ge" -> !nan && a >= b;
                    case "equ" -> nan || a == b;
                    case "neu" -> nan || a != b;
                    case "ltu" -> nan || a < b;
                    case "leu" -> nan || a <= b;
                    case "gtu" -> nan || a > b;
                    case "geu" -> nan || a >= b;
                    case "num" -> !nan;
                    case "nan" -> nan;
                    default -> false;
                };
            };
        }
        integerCmp(c, cmp, t);
        boolean signed = t.isSigned();
        return switch (cmp) {
            case "eq" -> (a, b) -> a == b;
            case "ne" -> (a, b) -> a != b;
            case "lt" -> signed ? (a, b) -> a < b : (a, b) -> Long.compareUnsigned(a, b) < 0;
            case "le" -> signed ? (a, b) -> a <= b : (a, b) -> Long.compareUnsigned(a, b) <= 0;
            case "gt" -> signed ? (a, b) -> a > b : (a, b) -> Long.compareUnsigned(a, b) > 0;
            case "ge" -> signed ? (a, b) -> a >= b : (a, b) -> Long.compareUnsigned(a, b) >= 0;
            case "lo" -> (a, b) -> Long.compareUnsigned(a, b) < 0;
            case "ls" -> (a, b) -> Long.compareUnsigned(a, b) <= 0;
            case "hi" -> (a, b) -> Long.compareUnsigned(a, b) > 0;
            case "hs" -> (a, b) -> Long.compareUnsigned(a, b) >= 0;
            default -> throw c.error("comparison ." + cmp + " needs a floating-point type");
        };
    }

    /**
     * PTX ISA 9.3.2 (integer and bit-size comparisons): signed types take eq/ne/lt/le/gt/ge, the
     * unsigned ones lo/ls/hi/hs; bit-size types only eq and ne ("ordering comparisons are not
     * defined for bit-size types"). ptxas rejects the rest ("mismatch between instruction type
     * and comparison qualifier"); so do we, rather than pick a signedness.
     */
    private static void integerCmp(CompileContext c, String cmp, ScalarType t) {
        if (t == ScalarType.PRED) return;
        boolean bits = t.ptxName().startsWith("b");
        if ((bits && !cmp.equals("eq") && !cmp.equals("ne")) || (t.isSigned() && UNSIGNED_ONLY.contains(cmp))) {
            throw c.error(c.insn().mnemonic() + ": ." + cmp + " is not a comparison of ." + t.ptxName()
                    + (bits ? " (bit-size types take .eq and .ne)" : " (signed types take .lt/.le/.gt/.ge)"));
        }
    }

    private static Op setp(CompileContext c) {
        c.expectOperands(3, 4);
        ScalarType t = c.type();
        if (t == ScalarType.F16X2 || t == ScalarType.BF16X2) return setpPair(c, t);
        Cmp cmp = comparison(c, cmpName(c), t);
        int p;
        int q = -1;
        if (c.operand(0) instanceof Operand.Pair pair) {
            p = c.dst(pair.first());
            q = c.dst(pair.second());
        } else {
            p = c.dst(0);
        }
        Src a = c.src(1, t);
        Src b = c.src(2, t);
        int combine = c.has(".and") ? 1 : c.has(".or") ? 2 : c.has(".xor") ? 3 : 0;
        if (combine != 0 && c.operandCount() != 4) throw c.error(c.insn().mnemonic() + " needs a fourth (predicate) operand");
        if (combine == 0 && c.operandCount() != 3) throw c.error(c.insn().mnemonic() + " takes 3 operands without .and/.or/.xor");
        Src pc = combine != 0 ? c.src(3, ScalarType.PRED) : null;
        int qd = q;
        return new FnOp((m, th) -> {
            boolean r = cmp.test(Values.norm(a.get(m, th), t), Values.norm(b.get(m, th), t));
            boolean nr = !r;
            if (pc != null) {
                boolean cv = (pc.get(m, th) & 1) != 0;
                r = combine(combine, r, cv);
                nr = combine(combine, nr, cv);
            }
            if (p >= 0) m.setReg(th, p, r ? 1 : 0);
            if (qd >= 0) m.setReg(th, qd, nr ? 1 : 0);
        });
    }

    /**
     * {@code set.CmpOp{.BoolOp}{.ftz}.dtype.stype d, a, b{, {!}c}} (PTX ISA 9.7.6, set; half
     * precision comparison: set): the comparison (combined with c by the BoolOp) written as a
     * value: true is 1.0 for a float destination (.f32, .f16, .bf16), all ones for an integer one;
     * false is 0. With a .f16x2/.bf16x2 source each half is compared and written on its own
     * (element 0 low): 1.0 in the destination's half format, or 0xFFFF for .u32/.s32.
     */
    private static Op set(CompileContext c) {
        c.expectOperands(3, 4);
        var types = c.types();
        if (types.size() != 2) throw c.error(c.insn().mnemonic() + " needs a destination and a source type");
        ScalarType dt = types.get(0);
        ScalarType st = types.get(1);
        int combine = c.has(".and") ? 1 : c.has(".or") ? 2 : c.has(".xor") ? 3 : 0;
        if ((combine != 0) != (c.operandCount() == 4)) throw c.error(c.insn().mnemonic() + ": a fourth (predicate) operand goes with .and/.or/.xor");
        Src pc = combine != 0 ? c.src(3, ScalarType.PRED) : null;
        int d = c.dst(0);
        boolean pair = st == ScalarType.F16X2 || st == ScalarType.BF16X2;
        if (pair) {
            ScalarType half = st == ScalarType.F16X2 ? ScalarType.F16 : ScalarType.BF16;
            long one;
            if (dt == st) one = half == ScalarType.F16 ? 0x3C00 : 0x3F80;
            else if (dt == ScalarType.U32 || dt == ScalarType.S32) one = 0xFFFF;
            else throw c.error("unsupported instruction " + c.insn().mnemonic() + " (a " + st.name().toLowerCase() + " source is written as ." + st.name().toLowerCase() + ", .u32 or .s32)");
            ftzSource(c, dt, st);
            Cmp cmp = comparison(c, cmpName(c), half);
            Src a = c.src(1, ScalarType.B32);
            Src b = c.src(2, ScalarType.B32);
            return new FnOp((m, th) -> {
                long x = a.get(m, th);
                long y = b.get(m, th);
                boolean lo = cmp.test(x & 0xFFFF, y & 0xFFFF);
                boolean hi = cmp.test((x >>> 16) & 0xFFFF, (y >>> 16) & 0xFFFF);
                if (pc != null) {
                    boolean cv = (pc.get(m, th) & 1) != 0;
                    lo = combine(combine, lo, cv);
                    hi = combine(combine, hi, cv);
                }
                if (d >= 0) m.setReg(th, d, (lo ? one : 0) | (hi ? one << 16 : 0));
            });
        }
        long one = switch (dt) {
            case F32 -> 0x3F800000L;
            case F16 -> 0x3C00;
            case BF16 -> 0x3F80;
            case U32, S32 -> 0xFFFFFFFFL;
            case U16, S16 -> 0xFFFF;
            default -> throw c.error("unsupported instruction " + c.insn().mnemonic() + " (destination ." + dt.name().toLowerCase() + ")");
        };
        boolean halfDst = dt == ScalarType.F16 || dt == ScalarType.BF16 || dt == ScalarType.U16 || dt == ScalarType.S16;
        boolean halfSrc = st == ScalarType.F16 || st == ScalarType.BF16;
        // The ISA's forms: 32-bit destinations of any source; f16/bf16 destinations of any
        // source; 16-bit integer destinations of f16/bf16 sources only.
        if ((dt == ScalarType.U16 || dt == ScalarType.S16) && !halfSrc) {
            throw c.error("unsupported instruction " + c.insn().mnemonic() + " (a 16-bit integer destination takes a .f16 or .bf16 source)");
        }
        if (halfDst && st == ScalarType.PRED) throw c.error("unsupported instruction " + c.insn().mnemonic());
        ftzSource(c, dt, st);
        // Forms ptxas rejects ("unexpected instruction types"): a .f32 destination of a half
        // source, a .f16 destination of a .bf16 one (9.7.4 lists .f16 sources and integer
        // destinations for those).
        if (halfSrc && dt == ScalarType.F32 || dt == ScalarType.F16 && st == ScalarType.BF16) {
            throw c.error("unsupported instruction " + c.insn().mnemonic() + " (." + dt.ptxName() + " destination of a ." + st.ptxName() + " source)");
        }
        Cmp cmp = comparison(c, cmpName(c), st);
        Src a = c.src(1, st);
        Src b = c.src(2, st);
        return new FnOp((m, th) -> {
            boolean r = cmp.test(Values.norm(a.get(m, th), st), Values.norm(b.get(m, th), st));
            if (pc != null) r = combine(combine, r, (pc.get(m, th) & 1) != 0);
            if (d >= 0) m.setReg(th, d, r ? one : 0);
        });
    }

    /**
     * .ftz flushes f32 and f16 subnormal inputs (9.7.6 set/setp, 9.7.4 half precision set/setp);
     * the forms on .bf16, .bf16x2, .f64 and integer sources, and set to a .bf16 destination,
     * have none (ptxas: "illegal modifier
     * '.ftz'"). Refused by name rather than ignored or given a meaning.
     */
    private static void ftzSource(CompileContext c, ScalarType dt, ScalarType st) {
        if (c.has(".ftz") && (st != ScalarType.F32 && st != ScalarType.F16 && st != ScalarType.F16X2 || dt == ScalarType.BF16)) {
            throw c.error("unsupported instruction " + c.insn().mnemonic() + " (.ftz flushes .f32, .f16 and .f16x2 inputs only)");
        }
    }

    private static boolean combine(int op, boolean a, boolean b) {
        return switch (op) {
            case 1 -> a && b;
            case 2 -> a || b;
            default -> a ^ b;
        };
    }

    private static Op selp(CompileContext c) {
        c.expectOperands(4, 4);
        ScalarType t = c.type();
        Op fast = FastMoveOp.selp(c, t);
        if (fast != null) return fast;
        int d = c.dst(0);
        Src a = c.src(1, t);
        Src b = c.src(2, t);
        Src p = c.src(3, ScalarType.PRED);
        int bits = t.bits();
        return new FnOp((m, th) -> {
            long v = (p.get(m, th) & 1) != 0 ? a.get(m, th) : b.get(m, th);
            if (d >= 0) m.setReg(th, d, Values.trunc(v, bits));
        });
    }

    private static Op slct(CompileContext c) {
        c.expectOperands(4, 4);
        var types = c.types();
        if (types.size() != 2) throw c.error("slct needs a destination type and .s32 or .f32");
        ScalarType dt = types.get(0);
        ScalarType ct = types.get(1);
        int d = c.dst(0);
        Src a = c.src(1, dt);
        Src b = c.src(2, dt);
        Src s = c.src(3, ct);
        return new FnOp((m, th) -> {
            long cv = s.get(m, th);
            boolean ge = ct == ScalarType.F32 ? Values.f32(cv) >= 0 || (Values.f32(cv) == 0) : (int) cv >= 0;
            if (d >= 0) m.setReg(th, d, Values.trunc(ge ? a.get(m, th) : b.get(m, th), dt.bits()));
        });
    }

    /**
     * {@code setp.CmpOp{.ftz}{.BoolOp}.{f16x2,bf16x2} p|q, a, b{, c}} (PTX ISA 9.7.4, setp on half
     * pairs): p compares the low halves, q the high halves, each combined with c by the BoolOp.
     */
    private static Op setpPair(CompileContext c, ScalarType t) {
        ScalarType half = t == ScalarType.F16X2 ? ScalarType.F16 : ScalarType.BF16;
        Cmp cmp = comparison(c, cmpName(c), half);
        if (!(c.operand(0) instanceof Operand.Pair pair)) throw c.error(c.insn().mnemonic() + " writes two predicates: p|q");
        int p = c.dst(pair.first());
        int q = c.dst(pair.second());
        Src a = c.src(1, ScalarType.B32);
        Src b = c.src(2, ScalarType.B32);
        int combine = c.has(".and") ? 1 : c.has(".or") ? 2 : c.has(".xor") ? 3 : 0;
        if ((combine != 0) != (c.operandCount() == 4)) throw c.error(c.insn().mnemonic() + ": a fourth (predicate) operand goes with .and/.or/.xor");
        Src pc = combine != 0 ? c.src(3, ScalarType.PRED) : null;
        return new FnOp((m, th) -> {
            long x = a.get(m, th);
            long y = b.get(m, th);
            boolean lo = cmp.test(x & 0xFFFF, y & 0xFFFF);
            boolean hi = cmp.test((x >>> 16) & 0xFFFF, (y >>> 16) & 0xFFFF);
            if (pc != null) {
                boolean cv = (pc.get(m, th) & 1) != 0;
                lo = combine(combine, lo, cv);
                hi = combine(combine, hi, cv);
            }
            if (p >= 0) m.setReg(th, p, lo ? 1 : 0);
            if (q >= 0) m.setReg(th, q, hi ? 1 : 0);
        });
    }
}
