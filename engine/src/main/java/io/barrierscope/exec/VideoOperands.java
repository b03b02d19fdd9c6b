package io.barrierscope.exec;

import io.barrierscope.ptx.Operand;
import io.barrierscope.ptx.ScalarType;
import java.util.ArrayList;
import java.util.List;

/**
 * The operands of the video instructions (PTX ISA 9.7.18): their .u32/.s32 types, the selectors
 * and masks written on them ({@code %r2.b1}, {@code %r1.h10}) and the minus sign of vmad. Shared by
 * {@link VideoScalarOps}, {@link VideoMadOp} and {@link VideoSimdOps}, so each checks its operands
 * the same way and refuses what the ISA's syntax does not list, naming the operand.
 */
final class VideoOperands {
    private VideoOperands() {}

    /** The 4-way masks of 9.7.18.2 (every non-empty set of bytes, digits descending). */
    static final List<String> MASKS4 = List.of("b0", "b1", "b10", "b2", "b20", "b21", "b210", "b3", "b30", "b31", "b310",
            "b32", "b320", "b321", "b3210");
    /** The 2-way masks of 9.7.18.2. */
    static final List<String> MASKS2 = List.of("h0", "h1", "h10");
    /** vset's comparisons, scalar (9.7.18.1.4) and SIMD (9.7.18.2.2, 9.7.18.2.4) alike; {@link #compare} takes the index. */
    static final List<String> CMPS = List.of(".eq", ".ne", ".lt", ".le", ".gt", ".ge");

    /** The register of a plain or video operand, or null. */
    static Operand.Reg reg(Operand o) {
        if (o instanceof Operand.Reg r) return r;
        return o instanceof Operand.Video v ? v.reg() : null;
    }

    static String selector(Operand o) { return o instanceof Operand.Video v ? v.selector() : null; }

    static boolean minus(Operand o) { return o instanceof Operand.Video v && v.minus(); }

    /** How operand {@code i} is written, for messages: {@code operand 2 (%r2.b4)}. */
    static String describe(CompileContext c, int i) {
        Operand o = c.operand(i);
        Operand.Reg r = reg(o);
        String text = r == null ? CompileContext.describe(o)
                : (minus(o) ? "-" : "") + r.reg().name() + (selector(o) == null ? "" : "." + selector(o));
        return "operand " + (i + 1) + " (" + text + ")";
    }

    /**
     * The types named by the instruction, each .u32 or .s32 (true for .s32), exactly {@code n} of
     * them; {@code what} names the form for the message, e.g. ".dtype.atype.btype".
     */
    static boolean[] signs(CompileContext c, int n, String what) {
        List<ScalarType> ts = c.types();
        if (ts.size() != n || ts.stream().anyMatch(t -> t != ScalarType.U32 && t != ScalarType.S32)) {
            throw c.error("unsupported instruction " + c.insn().mnemonic() + " (" + c.insn().opcode() + " takes the types " + what
                    + ", each .u32 or .s32: PTX ISA 9.7.18)");
        }
        boolean[] out = new boolean[n];
        for (int k = 0; k < n; k++) out[k] = ts.get(k) == ScalarType.S32;
        return out;
    }

    /** The modifiers of the instruction that are not types, in source order. */
    static List<String> flags(CompileContext c) {
        List<String> out = new ArrayList<>();
        for (String m : c.insn().modifiers()) if (ScalarType.fromName(m) == null) out.add(m);
        return out;
    }

    /** Refuses operand {@code i} unless it is a 32-bit integer or bit-size register (of any written form). */
    static void expectIntRegister(CompileContext c, int i, String why) {
        Operand.Reg r = reg(c.operand(i));
        ScalarType t = r == null ? null : r.reg().type();
        if (r == null || r.negated() || t == null || t.bits() != 32 || t.isFloat()) {
            throw c.error(c.insn().mnemonic() + ": " + describe(c, i) + " is not a .b32/.u32/.s32 register; " + why);
        }
    }

    /**
     * A source of a scalar video instruction: a 32-bit integer register, or an integer immediate
     * (ptxas takes them; PTX ISA 9.7.18.1 speaks of registers only). A minus sign is refused unless
     * {@code minusOk}; a selector unless {@code selectorOk}.
     */
    static Src scalarSource(CompileContext c, int i, boolean selectorOk, boolean minusOk) {
        Operand o = c.operand(i);
        if (o instanceof Operand.Imm imm && imm.kind() == Operand.ImmKind.INT) return Src.imm(imm.value() & 0xFFFFFFFFL);
        expectIntRegister(c, i, "the video instructions take 32-bit integer registers (PTX ISA 9.7.18.1)");
        if (minus(o) && !minusOk) throw c.error(c.insn().mnemonic() + ": " + describe(c, i) + ": only vmad's operands can be negated (PTX ISA 9.7.18.1.3)");
        if (selector(o) != null && !selectorOk) throw c.error(c.insn().mnemonic() + ": " + describe(c, i) + " takes no selector (PTX ISA 9.7.18.1)");
        return c.src(reg(o), ScalarType.B32);
    }

    /**
     * A scalar selector .b0-.b3, .h0, .h1 (PTX ISA 9.7.18.1) as {shift, width}; {0, 32} for none (the
     * whole word). Anything else is refused naming the operand.
     */
    static int[] scalarSelector(CompileContext c, int i) {
        String s = selector(c.operand(i));
        if (s == null) return new int[] {0, 32};
        return switch (s) {
            case "b0", "b1", "b2", "b3" -> new int[] {8 * (s.charAt(1) - '0'), 8};
            case "h0", "h1" -> new int[] {16 * (s.charAt(1) - '0'), 16};
            default -> throw c.error(c.insn().mnemonic() + ": " + describe(c, i) + ": the scalar video instructions' selectors are .b0, .b1, .b2,"
                    + " .b3, .h0 and .h1 (PTX ISA 9.7.18.1)");
        };
    }

    /** Bits [shift, shift + width) of x, sign-extended when {@code signed}, else zero-extended. */
    static long extract(long x, int shift, int width, boolean signed) {
        long v = (x >>> shift) & ((1L << width) - 1);
        return signed && (v >>> (width - 1)) != 0 ? v - (1L << width) : v;
    }

    /** CLAMP(v, max, min) for an element of {@code width} bits, signed or unsigned. */
    static long clamp(long v, int width, boolean signed) {
        long lo = signed ? -(1L << (width - 1)) : 0;
        long hi = signed ? (1L << (width - 1)) - 1 : (1L << width) - 1;
        return Math.max(lo, Math.min(hi, v));
    }

    /** x cmp y for the index of cmp in {@link #CMPS}. */
    static boolean compare(int cmp, long x, long y) {
        return switch (cmp) {
            case 0 -> x == y;
            case 1 -> x != y;
            case 2 -> x < y;
            case 3 -> x <= y;
            case 4 -> x > y;
            default -> x >= y;
        };
    }


    /** a{.asel} or b{.bsel} of a scalar video instruction: its source, the selected bits and its type's sign. */
    record Selected(Src src, int shift, int width, boolean signed) {
        /** The operand as the ISA's first stage reads it: selected, then sign- or zero-extended. */
        long get(Machine m, int t) { return extract(src.get(m, t), shift, width, signed); }
    }

    /** Operands 1 and 2 (a and b) of a scalar video instruction, with their selectors; both selectors are checked before either source. */
    static Selected[] scalarAB(CompileContext c, boolean aSigned, boolean bSigned, boolean minusOk) {
        int[] asel = scalarSelector(c, 1);
        int[] bsel = scalarSelector(c, 2);
        Src a = scalarSource(c, 1, true, minusOk);
        Src b = scalarSource(c, 2, true, minusOk);
        return new Selected[] {new Selected(a, asel[0], asel[1], aSigned), new Selected(b, bsel[0], bsel[1], bSigned)};
    }
}
