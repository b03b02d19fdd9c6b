package io.barrierscope.exec;

import io.barrierscope.ptx.ScalarType;
import java.util.List;

/** Integer and bit instructions (PTX ISA 9.7.1, 9.7.8, 9.7.9): one lane op each. */
final class IntegerOps {
    private IntegerOps() {}

    @FunctionalInterface
    interface Bin { long apply(long a, long b); }

    static Op compile(CompileContext c, String opc) {
        ScalarType t = c.type();
        int bits = t.bits();
        Op fast = FastIntOp.tryCompile(c, opc, t);
        if (fast != null) return fast;
        switch (opc) {
            case "add", "sub", "min", "max", "and", "or", "xor", "shl", "shr", "div", "rem", "mul24":
                return binary(c, opc, t, bits);
            case "mul": return mul(c, t, bits);
            case "mad", "mad24":
                return mad(c, t, bits);
            case "abs", "neg", "not", "cnot", "popc", "clz", "brev", "bfind":
                return unary(c, opc, t, bits);
            case "bfe": return bfe(c, t, bits);
            case "bfi": return bfi(c, bits);
            case "prmt": return prmt(c);
            case "shf": return shf(c);
            case "lop3": return lop3(c);
            case "szext": return szext(c, t);
            case "bmsk": return bmsk(c);
            case "fns": return fns(c);
            default: throw c.error("unsupported instruction " + c.insn().mnemonic());
        }
    }

    private static Op binary(CompileContext c, String opc, ScalarType t, int bits) {
        c.expectOperands(3, 3);
        int d = c.dst(0);
        Src a = c.src(1, t);
        ScalarType bt = opc.equals("shl") || opc.equals("shr") ? ScalarType.U32 : t;
        Src b = c.src(2, bt);
        boolean signed = t.isSigned();
        boolean sat = c.has(".sat");
        Bin f = switch (opc) {
            case "add" -> sat ? (x, y) -> satS32(x + y) : Long::sum;
            case "sub" -> sat ? (x, y) -> satS32(x - y) : (x, y) -> x - y;
            case "min" -> signed ? Math::min : (x, y) -> Long.compareUnsigned(x, y) <= 0 ? x : y;
            case "max" -> signed ? Math::max : (x, y) -> Long.compareUnsigned(x, y) >= 0 ? x : y;
            case "and" -> (x, y) -> x & y;
            case "or" -> (x, y) -> x | y;
            case "xor" -> (x, y) -> x ^ y;
            case "shl" -> (x, y) -> (y & 0xFFFFFFFFL) >= bits ? 0 : x << y;
            case "shr" -> signed ? (x, y) -> x >> Math.min(y & 0xFFFFFFFFL, 63)
                    : (x, y) -> (y & 0xFFFFFFFFL) >= bits ? 0 : x >>> y;
            case "div" -> signed ? (x, y) -> x / y : Long::divideUnsigned;
            case "rem" -> signed ? (x, y) -> x % y : Long::remainderUnsigned;
            case "mul24" -> c.has(".hi") ? (x, y) -> (low24(x, signed) * low24(y, signed)) >> 16
                    : (x, y) -> low24(x, signed) * low24(y, signed);
            default -> throw c.error("unsupported instruction " + c.insn().mnemonic());
        };
        if (t.isFloat()) throw c.error("internal: float routed to integer ops");
        Bin g = f;
        if (c.has(".relu") && (opc.equals("min") || opc.equals("max"))) {
            // min.relu / max.relu (.s32): negative results become 0
            g = (x, y) -> Math.max(0, f.apply(x, y));
        }
        if ((opc.equals("div") || opc.equals("rem")) && signed && bits == 64) {
            Bin g0 = g;
            g = (x, y) -> (x == Long.MIN_VALUE && y == -1) ? (opc.equals("div") ? x : 0) : g0.apply(x, y);
        }
        Bin h = g;
        if (opc.equals("div") || opc.equals("rem")) {
            return new MemoryOps.CheckedOp((m, th) -> {
                long x = Values.norm(a.get(m, th), t);
                long y = Values.norm(b.get(m, th), bt);
                if (d >= 0) m.setReg(th, d, Values.trunc(h.apply(x, y), bits));
            });
        }
        return new FnOp((m, th) -> {
            long x = Values.norm(a.get(m, th), t);
            long y = Values.norm(b.get(m, th), bt);
            if (d >= 0) m.setReg(th, d, Values.trunc(h.apply(x, y), bits));
        });
    }

    /** The low 24 bits of an operand of mul24/mad24, sign-extended for signed types and zero-extended otherwise. */
    private static long low24(long x, boolean signed) { return signed ? (x << 40) >> 40 : x & 0xFFFFFFL; }

    private static long satS32(long v) { return Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, v)); }

    private static Op mul(CompileContext c, ScalarType t, int bits) {
        c.expectOperands(3, 3);
        int d = c.dst(0);
        Src a = c.src(1, t);
        Src b = c.src(2, t);
        boolean signed = t.isSigned();
        if (c.has(".wide")) {
            return new FnOp((m, th) -> {
                long x = Values.norm(a.get(m, th), t);
                long y = Values.norm(b.get(m, th), t);
                if (d >= 0) m.setReg(th, d, Values.trunc(x * y, bits * 2));
            });
        }
        if (c.has(".hi")) {
            return new FnOp((m, th) -> {
                long x = Values.norm(a.get(m, th), t);
                long y = Values.norm(b.get(m, th), t);
                long r;
                if (bits == 64) r = signed ? Math.multiplyHigh(x, y) : unsignedMultiplyHigh(x, y);
                else r = (x * y) >> bits;
                if (d >= 0) m.setReg(th, d, Values.trunc(r, bits));
            });
        }
        return new FnOp((m, th) -> {
            if (d >= 0) m.setReg(th, d, Values.trunc(a.get(m, th) * b.get(m, th), bits));
        });
    }

    static long unsignedMultiplyHigh(long x, long y) {
        long r = Math.multiplyHigh(x, y);
        r += (y & (x >> 63));
        r += (x & (y >> 63));
        return r;
    }

    private static Op mad(CompileContext c, ScalarType t, int bits) {
        c.expectOperands(4, 4);
        int d = c.dst(0);
        Src a = c.src(1, t);
        Src b = c.src(2, t);
        boolean wide = c.has(".wide");
        Src cc = c.src(3, wide ? (t.isSigned() ? ScalarType.S64 : ScalarType.U64) : t);
        boolean hi = c.has(".hi");
        boolean signed = t.isSigned();
        boolean m24 = c.insn().opcode().equals("mad24");
        boolean sat = c.has(".sat");
        if (sat && !(hi && t == ScalarType.S32)) throw c.error(c.insn().mnemonic() + ": .sat is only defined for mad.hi.s32");
        return new FnOp((m, th) -> {
            long x = Values.norm(a.get(m, th), t);
            long y = Values.norm(b.get(m, th), t);
            if (m24) {
                x = low24(x, signed);
                y = low24(y, signed);
            }
            long p;
            int outBits = bits;
            if (wide) {
                p = x * y;
                outBits = bits * 2;
            } else if (hi) {
                p = bits == 64 ? (signed ? Math.multiplyHigh(x, y) : unsignedMultiplyHigh(x, y)) : (x * y) >> (m24 ? 16 : bits);
            } else {
                p = x * y;
            }
            // mad.hi.sat.s32: the sum saturates to the s32 range
            long sum = sat ? satS32(p + Values.norm(cc.get(m, th), ScalarType.S32)) : p + cc.get(m, th);
            if (d >= 0) m.setReg(th, d, Values.trunc(sum, outBits));
        });
    }

    private static Op unary(CompileContext c, String opc, ScalarType t, int bits) {
        c.expectOperands(2, 2);
        int d = c.dst(0);
        Src a = c.src(1, t);
        boolean shiftamt = c.has(".shiftamt");
        return new FnOp((m, th) -> {
            long x = Values.norm(a.get(m, th), t);
            long r = switch (opc) {
                case "abs" -> Math.abs(x);
                case "neg" -> -x;
                case "not" -> t == ScalarType.PRED ? x ^ 1 : ~x;
                case "cnot" -> x == 0 ? 1 : 0;
                case "popc" -> bits == 64 ? Long.bitCount(x) : Integer.bitCount((int) x);
                case "clz" -> bits == 64 ? Long.numberOfLeadingZeros(x) : Integer.numberOfLeadingZeros((int) x);
                case "brev" -> bits == 64 ? Long.reverse(x) : Integer.reverse((int) x) & 0xFFFFFFFFL;
                case "bfind" -> bfind(x, bits, t.isSigned(), shiftamt);
                default -> 0;
            };
            if (d >= 0) m.setReg(th, d, Values.trunc(r, (opc.equals("popc") || opc.equals("clz") || opc.equals("bfind")) ? 32 : bits));
        });
    }

    private static long bfind(long x, int bits, boolean signed, boolean shiftamt) {
        long v = signed && x < 0 ? ~x : x;
        if (bits == 32) v &= 0xFFFFFFFFL;
        if (v == 0) return 0xFFFFFFFFL;
        long pos = 63 - Long.numberOfLeadingZeros(v);
        // .shiftamt: the left shift that moves the found bit to the msb (ISA: d = msb - d)
        return shiftamt ? bits - 1 - pos : pos;
    }

    private static Op bfe(CompileContext c, ScalarType t, int bits) {
        c.expectOperands(4, 4);
        int d = c.dst(0);
        Src a = c.src(1, t);
        Src b = c.src(2, ScalarType.U32);
        Src l = c.src(3, ScalarType.U32);
        boolean signed = t.isSigned();
        return new FnOp((m, th) -> {
            long x = Values.norm(a.get(m, th), t);
            int pos = (int) (b.get(m, th) & 0xFF);
            int len = (int) (l.get(m, th) & 0xFF);
            long r;
            if (len == 0) {
                r = 0;
            } else {
                long shifted = pos >= bits ? (signed && x < 0 ? -1 : 0) : (signed ? x >> pos : x >>> pos);
                int keep = Math.min(len, bits);
                if (keep >= 64) {
                    r = shifted;
                } else {
                    r = shifted & ((1L << keep) - 1);
                    if (signed) {
                        boolean sbit = pos + len - 1 >= bits ? x < 0 : ((x >> Math.min(pos + len - 1, 63)) & 1) != 0;
                        if (sbit) r |= -1L << keep;
                    }
                }
            }
            if (d >= 0) m.setReg(th, d, Values.trunc(r, bits));
        });
    }

    private static Op bfi(CompileContext c, int bits) {
        c.expectOperands(5, 5);
        int d = c.dst(0);
        Src a = c.src(1, null);
        Src b = c.src(2, null);
        Src p = c.src(3, ScalarType.U32);
        Src l = c.src(4, ScalarType.U32);
        return new FnOp((m, th) -> {
            int pos = (int) (p.get(m, th) & 0xFF);
            int len = (int) (l.get(m, th) & 0xFF);
            long r = b.get(m, th);
            if (len > 0 && pos < bits) {
                int n = Math.min(len, bits - pos);
                long mask = (n >= 64 ? -1L : (1L << n) - 1) << pos;
                r = (r & ~mask) | ((a.get(m, th) << pos) & mask);
            }
            if (d >= 0) m.setReg(th, d, Values.trunc(r, bits));
        });
    }

    /**
     * prmt.b32{.mode} d, a, b, c (PTX ISA 9.7.9.7, prmt): four bytes picked from {b, a} = bytes 7..0.
     * Without a mode each destination byte has its own 4-bit selector in c (bit 3 replicates the
     * picked byte's sign); with a mode c[1:0] alone chooses one of the ISA's four fixed byte
     * patterns per mode, and no sign is replicated.
     */
    private static Op prmt(CompileContext c) {
        c.expectOperands(4, 4);
        int d = c.dst(0);
        Src a = c.src(1, ScalarType.B32);
        Src b = c.src(2, ScalarType.B32);
        Src s = c.src(3, ScalarType.B32);
        // The ISA's syntax is prmt.b32{.mode} with at most one mode.
        if (c.type() != ScalarType.B32) throw c.error("unsupported instruction " + c.insn().mnemonic() + " (prmt is .b32 only)");
        List<String> modes = c.insn().modifiers().stream().filter(x -> x.matches("\\.(f4e|b4e|rc8|ecl|ecr|rc16)")).toList();
        if (modes.size() > 1) throw c.error(c.insn().mnemonic() + " takes at most one mode, found " + String.join(" ", modes));
        String mode = modes.isEmpty() ? null : modes.get(0);
        // A mode's byte pattern for each c[1:0], looked up per lane rather than recomputed.
        int[][] pick = mode == null ? null : PrmtMode.valueOf(mode.substring(1).toUpperCase(java.util.Locale.ROOT)).table();
        return new FnOp((m, th) -> {
            long src = (a.get(m, th) & 0xFFFFFFFFL) | ((b.get(m, th) & 0xFFFFFFFFL) << 32);
            int sel = (int) s.get(m, th);
            long r = 0;
            for (int i = 0; i < 4; i++) {
                int n = pick == null ? (sel >> (4 * i)) & 0xF : pick[sel & 3][i];
                long byt = (src >>> ((n & 7) * 8)) & 0xFF;
                if ((n & 8) != 0) byt = (byt & 0x80) != 0 ? 0xFF : 0;
                r |= byt << (8 * i);
            }
            if (d >= 0) m.setReg(th, d, r);
        });
    }

    /** prmt's modes: the source byte (0-7) of destination byte i for c[1:0] = k, as the ISA's table gives it. */
    enum PrmtMode {
        F4E, B4E, RC8, ECL, ECR, RC16;

        int source(int k, int i) {
            return switch (this) {
                case F4E -> k + i;               // forward 4 extract: bytes k+3..k
                case B4E -> (k - i + 8) & 7;     // backward 4 extract: k, k-1, k-2, k-3 (mod 8)
                case RC8 -> k;                   // replicate byte k
                case ECL -> Math.max(i, k);      // edge clamp left
                case ECR -> Math.min(i, k);      // edge clamp right
                case RC16 -> 2 * (k & 1) + (i & 1); // replicate half-word k&1
            };
        }

        /** {@link #source} for every c[1:0] (rows) and destination byte (columns). */
        int[][] table() {
            int[][] t = new int[4][4];
            for (int k = 0; k < 4; k++) for (int i = 0; i < 4; i++) t[k][i] = source(k, i);
            return t;
        }
    }

    private static Op shf(CompileContext c) {
        c.expectOperands(4, 4);
        int d = c.dst(0);
        Src a = c.src(1, ScalarType.B32);
        Src b = c.src(2, ScalarType.B32);
        Src n = c.src(3, ScalarType.U32);
        boolean left = c.has(".l");
        boolean clamp = c.has(".clamp");
        return new FnOp((m, th) -> {
            long v = ((b.get(m, th) & 0xFFFFFFFFL) << 32) | (a.get(m, th) & 0xFFFFFFFFL);
            long sh = n.get(m, th) & 0xFFFFFFFFL;
            sh = clamp ? Math.min(sh, 32) : sh & 31;
            long r = left ? (v << sh) >>> 32 : v >>> sh;
            if (d >= 0) m.setReg(th, d, r & 0xFFFFFFFFL);
        });
    }

    private static Op lop3(CompileContext c) {
        c.expectOperands(5, 5);
        int d = c.dst(0);
        Src a = c.src(1, ScalarType.B32);
        Src b = c.src(2, ScalarType.B32);
        Src cc = c.src(3, ScalarType.B32);
        Src lut = c.src(4, ScalarType.B32);
        return new FnOp((m, th) -> {
            long x = a.get(m, th);
            long y = b.get(m, th);
            long z = cc.get(m, th);
            int l = (int) lut.get(m, th) & 0xFF;
            long r = 0;
            for (int i = 0; i < 8; i++) {
                if ((l & (1 << i)) == 0) continue;
                long tx = (i & 4) != 0 ? x : ~x;
                long ty = (i & 2) != 0 ? y : ~y;
                long tz = (i & 1) != 0 ? z : ~z;
                r |= tx & ty & tz;
            }
            if (d >= 0) m.setReg(th, d, r & 0xFFFFFFFFL);
        });
    }

    private static Op szext(CompileContext c, ScalarType t) {
        c.expectOperands(3, 3);
        int d = c.dst(0);
        Src a = c.src(1, t);
        Src b = c.src(2, ScalarType.U32);
        boolean signed = t.isSigned();
        boolean wrap = c.has(".wrap");
        return new FnOp((m, th) -> {
            long nb = b.get(m, th) & 0xFFFFFFFFL;
            // .wrap takes N modulo 32 (so 32 extends nothing: 0); .clamp caps it at 32 (9.7.1.x szext pseudocode)
            int n = wrap ? (int) (nb & 31) : (int) Math.min(nb, 32);
            long x = a.get(m, th) & 0xFFFFFFFFL;
            long r = n == 0 ? 0 : (signed ? ((x << (64 - n)) >> (64 - n)) : x & ((1L << n) - 1));
            if (d >= 0) m.setReg(th, d, r & 0xFFFFFFFFL);
        });
    }

    /** bmsk.mode.b32 d, a, b: a mask of b bits from bit a, per the ISA's pseudocode for .clamp and .wrap. */
    private static Op bmsk(CompileContext c) {
        c.expectOperands(3, 3);
        int d = c.dst(0);
        Src a = c.src(1, ScalarType.U32);
        Src b = c.src(2, ScalarType.U32);
        boolean clamp = c.has(".clamp");
        if (clamp == c.has(".wrap")) throw c.error("bmsk needs exactly one of .clamp or .wrap");
        return new FnOp((m, th) -> {
            long pos = a.get(m, th) & 0xFFFFFFFFL;
            long width = b.get(m, th) & 0xFFFFFFFFL;
            int a1 = (int) (pos & 31);
            int b1 = (int) (width & 31);
            long mask0 = (0xFFFFFFFFL << a1) & 0xFFFFFFFFL;
            boolean overflow = a1 + b1 >= 32;
            if (clamp) {
                if (pos >= 32) mask0 = 0;
                if (width >= 32) overflow = true;
            }
            long mask1 = overflow ? 0 : b1 == 0 ? 0xFFFFFFFFL : (0xFFFFFFFFL << (a1 + b1)) & 0xFFFFFFFFL;
            if (d >= 0) m.setReg(th, d, mask0 & ~mask1 & 0xFFFFFFFFL);
        });
    }
    /**
     * fns.b32 d, mask, base, offset (PTX ISA 9.7.1.17, fns): the position of the |offset|-th set bit of
     * mask counting from bit base towards bit 31 (offset > 0) or bit 0 (offset < 0), base itself
     * included; offset 0: base if its bit is set; none: 0xFFFFFFFF. The ISA defines base only in
     * 0..31: any other value (a negative .s32 one included) is the diagnostic fns-base-range.
     */
    private static Op fns(CompileContext c) {
        c.expectOperands(4, 4);
        if (c.type() != ScalarType.B32) throw c.error("unsupported instruction " + c.insn().mnemonic() + " (fns is .b32 only)");
        int d = c.dst(0);
        Src mask = c.src(1, ScalarType.B32);
        Src base = c.src(2, ScalarType.B32);
        Src offset = c.src(3, ScalarType.S32);
        return new FnOp((m, th) -> {
            long bits = mask.get(m, th) & 0xFFFFFFFFL;
            long b = base.get(m, th) & 0xFFFFFFFFL;
            int off = (int) offset.get(m, th);
            if (b > 31) {
                throw new MemoryFault(io.barrierscope.diag.DiagnosticCode.FNS_BASE_RANGE, 0,
                        "fns.b32 with base " + (int) b + ", outside 0..31 (the ISA leaves the result undefined)");
            }
            long r = 0xFFFFFFFFL;
            if (off == 0) {
                if ((bits >>> b & 1) != 0) r = b;
            } else {
                long count = Math.abs((long) off) - 1;
                int inc = off > 0 ? 1 : -1;
                for (long pos = b; pos >= 0 && pos < 32; pos += inc) {
                    if ((bits >>> pos & 1) == 0) continue;
                    if (count == 0) {
                        r = pos;
                        break;
                    }
                    count--;
                }
            }
            if (d >= 0) m.setReg(th, d, r);
        });
    }
}
