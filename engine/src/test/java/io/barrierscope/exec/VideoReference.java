package io.barrierscope.exec;

import java.math.BigInteger;

/**
 * The video instructions of PTX ISA 9.7.18, written here straight from the ISA's pseudocode in
 * arbitrary precision (BigInteger), apart from the engine, for the tests to compare against. A
 * form is described by plain fields, not by the PTX text. Selector strings are as written after
 * the dot ("b1", "h10", "b3210") or null for none.
 */
final class VideoReference {
    private VideoReference() {}

    static final BigInteger TWO32 = BigInteger.ONE.shiftLeft(32);
    static final BigInteger MASK32 = TWO32.subtract(BigInteger.ONE);

    /** A scalar video form (9.7.18.1): op is "vadd", ..., "vshl", "vshr", "vset"; secop "add"/"min"/"max" or null. */
    record Scalar(String op, boolean dSigned, boolean aSigned, boolean bSigned, String asel, String bsel, String dsel,
                  boolean sat, String secop, String mode, String cmp) {}

    /** partSelectSignExtend(x, type, sel) of 9.7.18.1. */
    static BigInteger partSelectSignExtend(long x, boolean signed, String sel) {
        int shift = 0, width = 32;
        if (sel != null) {
            width = sel.charAt(0) == 'b' ? 8 : 16;
            shift = width * (sel.charAt(1) - '0');
        }
        long v = (x >>> shift) & ((1L << width) - 1);
        BigInteger r = BigInteger.valueOf(v);
        if (signed && r.testBit(width - 1)) r = r.subtract(BigInteger.ONE.shiftLeft(width));
        return r;
    }

    static BigInteger clamp(BigInteger v, BigInteger max, BigInteger min) { return v.max(min).min(max); }

    static BigInteger smax(int bits) { return BigInteger.ONE.shiftLeft(bits - 1).subtract(BigInteger.ONE); }

    static BigInteger smin(int bits) { return BigInteger.ONE.shiftLeft(bits - 1).negate(); }

    static BigInteger umax(int bits) { return BigInteger.ONE.shiftLeft(bits).subtract(BigInteger.ONE); }

    /** optSaturate of 9.7.18.1. */
    static BigInteger optSaturate(BigInteger tmp, boolean sat, boolean sign, String dsel) {
        if (!sat) return tmp;
        int bits = dsel == null ? 32 : dsel.charAt(0) == 'b' ? 8 : 16;
        return sign ? clamp(tmp, smax(bits), smin(bits)) : clamp(tmp, umax(bits), BigInteger.ZERO);
    }

    /** optSecOp of 9.7.18.1. */
    static BigInteger optSecOp(String secop, BigInteger tmp, BigInteger c) {
        if (secop == null) return tmp;
        return switch (secop) {
            case "add" -> tmp.add(c);
            case "min" -> tmp.min(c);
            case "max" -> tmp.max(c);
            default -> tmp;
        };
    }

    /** optMerge of 9.7.18.1. */
    static BigInteger optMerge(String dsel, BigInteger tmp, BigInteger c) {
        if (dsel == null) return tmp;
        long t = tmp.longValue();
        long cv = c.longValue();
        long r = switch (dsel) {
            case "h0" -> (t & 0xffff) | (0xffff0000L & cv);
            case "h1" -> ((t & 0xffff) << 16) | (0x0000ffffL & cv);
            case "b0" -> (t & 0xff) | (0xffffff00L & cv);
            case "b1" -> ((t & 0xff) << 8) | (0xffff00ffL & cv);
            case "b2" -> ((t & 0xff) << 16) | (0xff00ffffL & cv);
            case "b3" -> ((t & 0xff) << 24) | (0x00ffffffL & cv);
            default -> throw new IllegalArgumentException(dsel);
        };
        return BigInteger.valueOf(r);
    }

    /** d for a scalar form (9.7.18.1.1, .2, .4), the low 32 bits. */
    static long scalar(Scalar f, long a, long b, long c) {
        boolean shift = f.op.equals("vshl") || f.op.equals("vshr");
        BigInteger ta = partSelectSignExtend(a, f.aSigned, f.asel);
        BigInteger tb = partSelectSignExtend(b, shift ? false : f.bSigned, f.bsel);
        if (shift) {
            if (f.mode.equals("clamp") && tb.compareTo(BigInteger.valueOf(32)) > 0) tb = BigInteger.valueOf(32);
            if (f.mode.equals("wrap")) tb = tb.and(BigInteger.valueOf(0x1f));
        }
        BigInteger tmp = switch (f.op) {
            case "vadd" -> ta.add(tb);
            case "vsub" -> ta.subtract(tb);
            case "vabsdiff" -> ta.subtract(tb).abs();
            case "vmin" -> ta.min(tb);
            case "vmax" -> ta.max(tb);
            // 9.7.18.1: the primary operation produces a signed 34-bit result
            case "vshl" -> toSigned(ta.shiftLeft(tb.intValue()), 34);
            case "vshr" -> ta.shiftRight(tb.intValue());
            case "vset" -> compare(ta, tb, f.cmp) ? BigInteger.ONE : BigInteger.ZERO;
            default -> throw new IllegalArgumentException(f.op);
        };
        boolean dSigned = !f.op.equals("vset") && f.dSigned;
        tmp = optSaturate(tmp, f.sat, dSigned, f.dsel);
        // "The sign of the third operand is based on dtype" (vset: unsigned)
        BigInteger cc = partSelectSignExtend(c, dSigned, null);
        BigInteger d = f.dsel != null ? optMerge(f.dsel, tmp, cc) : optSecOp(f.secop, tmp, cc);
        return d.and(MASK32).longValue();
    }

    /** The low {@code bits} bits of v read as a two's complement number. */
    static BigInteger toSigned(BigInteger v, int bits) {
        BigInteger m = v.and(umax(bits));
        return m.testBit(bits - 1) ? m.subtract(BigInteger.ONE.shiftLeft(bits)) : m;
    }

    static boolean compare(BigInteger x, BigInteger y, String cmp) {
        int k = x.compareTo(y);
        return switch (cmp) {
            case "eq" -> k == 0;
            case "ne" -> k != 0;
            case "lt" -> k < 0;
            case "le" -> k <= 0;
            case "gt" -> k > 0;
            case "ge" -> k >= 0;
            default -> throw new IllegalArgumentException(cmp);
        };
    }

    /** A vmad form (9.7.18.1.3): scale 0, 7 or 15. */
    record Mad(boolean aSigned, boolean bSigned, String asel, String bsel, boolean negA, boolean negB, boolean negC, boolean po,
               boolean sat, int scale) {}

    /** d of vmad, from its pseudocode (9.7.18.1.3). */
    static long vmad(Mad f, long a, long b, long c) {
        BigInteger ta = partSelectSignExtend(a, f.aSigned, f.asel);
        BigInteger tb = partSelectSignExtend(b, f.bSigned, f.bsel);
        boolean signedFinal = f.aSigned || f.bSigned || (f.negA ^ f.negB) || f.negC;
        BigInteger tmp = ta.multiply(tb);
        long cc = c & 0xFFFFFFFFL;
        int lsb = 0;
        if (f.po) {
            lsb = 1;
        } else if (f.negA ^ f.negB) {
            tmp = tmp.not();
            lsb = 1;
        } else if (f.negC) {
            cc = ~cc & 0xFFFFFFFFL;
            lsb = 1;
        }
        BigInteger c128 = partSelectSignExtend(cc, signedFinal, null);
        tmp = tmp.add(c128).add(BigInteger.valueOf(lsb));
        BigInteger result = tmp;
        if (f.scale != 0) {
            result = tmp.shiftRight(f.scale).and(umax(64));
            if (signedFinal) result = toSigned(result, 64); // the 64 bits read with the final result's sign
        }
        if (f.sat) result = signedFinal ? clamp(result, smax(32), smin(32)) : clamp(result, umax(32), BigInteger.ZERO);
        return result.and(MASK32).longValue();
    }

    /** A SIMD form (9.7.18.2): n = 2 or 4; op "add", "sub", "avrg", "absdiff", "min", "max", "set"; mask null for the default. */
    record Simd(String op, int n, boolean dSigned, boolean aSigned, boolean bSigned, String asel, String bsel, String mask,
                boolean sat, boolean add, String cmp) {}

    /** extractAndSignExt_n(a, b, sel, type): element i is the sel digit i places from the right, of {b, a}. */
    static BigInteger[] extractAndSignExt(long a, long b, int n, String sel, boolean signed) {
        int w = 32 / n;
        long pool = ((b & 0xFFFFFFFFL) << 32) | (a & 0xFFFFFFFFL);
        BigInteger[] v = new BigInteger[n];
        for (int i = 0; i < n; i++) {
            int idx = sel.charAt(sel.length() - 1 - i) - '0';
            long x = (pool >>> (w * idx)) & ((1L << w) - 1);
            v[i] = BigInteger.valueOf(x);
            if (signed && v[i].testBit(w - 1)) v[i] = v[i].subtract(BigInteger.ONE.shiftLeft(w));
        }
        return v;
    }

    /** d of a SIMD form (9.7.18.2.1-4). */
    static long simd(Simd f, long a, long b, long c) {
        int n = f.n, w = 32 / n;
        String asel = f.asel != null ? f.asel : n == 2 ? "h10" : "b3210";
        String bsel = f.bsel != null ? f.bsel : n == 2 ? "h32" : "b7654";
        BigInteger[] va = extractAndSignExt(a, b, n, asel, f.aSigned);
        BigInteger[] vb = extractAndSignExt(a, b, n, bsel, f.bSigned);
        BigInteger[] vc = extractAndSignExt(c, 0, n, n == 2 ? "h10" : "b3210", false);
        BigInteger[] t = new BigInteger[n];
        for (int i = 0; i < n; i++) {
            BigInteger s = va[i].add(vb[i]);
            t[i] = switch (f.op) {
                case "add" -> s;
                case "sub" -> va[i].subtract(vb[i]);
                case "avrg" -> s.signum() >= 0 ? s.add(BigInteger.ONE).shiftRight(1) : s.shiftRight(1);
                case "absdiff" -> va[i].subtract(vb[i]).abs();
                case "min" -> va[i].min(vb[i]);
                case "max" -> va[i].max(vb[i]);
                case "set" -> compare(va[i], vb[i], f.cmp) ? BigInteger.ONE : BigInteger.ZERO;
                default -> throw new IllegalArgumentException(f.op);
            };
            if (f.sat) t[i] = f.dSigned ? clamp(t[i], smax(w), smin(w)) : clamp(t[i], umax(w), BigInteger.ZERO);
        }
        String mask = f.mask != null ? f.mask : n == 2 ? "h10" : "b3210";
        boolean[] on = new boolean[n];
        for (int k = 1; k < mask.length(); k++) on[mask.charAt(k) - '0'] = true;
        BigInteger d;
        if (f.add) {
            d = BigInteger.valueOf(c & 0xFFFFFFFFL);
            for (int i = 0; i < n; i++) if (on[i]) d = d.add(t[i]);
        } else {
            d = BigInteger.ZERO;
            for (int i = 0; i < n; i++) d = d.or((on[i] ? t[i].and(umax(w)) : vc[i]).shiftLeft(w * i));
        }
        return d.and(MASK32).longValue();
    }
}
