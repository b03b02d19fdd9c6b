package io.barrierscope.exec;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * Formats a device printf the way the CUDA runtime does: the format string is read from device
 * memory and each argument from the packed argument buffer, aligned to its own size; the text
 * follows C's printf (the host's C library formats it on real hardware), never Java's
 * formatter or the host locale.
 */
final class DevicePrintf {
    private DevicePrintf() {}

    static final int MAX_LEN = 4096;
    /** "printf() can accept at most 32 arguments in addition to the format string". */
    static final int MAX_ARGS = 32;

    /** The formatted text and the number of arguments parsed (what CUDA's printf returns). */
    record Result(String text, int args) {}

    /** One conversion specification: %[flags][width][.precision][length]conversion. */
    private static final class Spec {
        boolean left;
        boolean plus;
        boolean space;
        boolean alt;
        boolean zero;
        int width = -1;
        int precision = -1;
        String length = "";
        char conv;
    }

    static String format(Memory mem, int slot, long fmtAddr, long argAddr) {
        return formatWithCount(mem, slot, fmtAddr, argAddr).text();
    }

    static Result formatWithCount(Memory mem, int slot, long fmtAddr, long argAddr) {
        String fmt = mem.loadString(fmtAddr, slot, MAX_LEN);
        StringBuilder out = new StringBuilder();
        long[] p = {argAddr};
        int args = 0;
        int i = 0;
        while (i < fmt.length() && out.length() < MAX_LEN) {
            char ch = fmt.charAt(i);
            if (ch != '%') {
                out.append(ch);
                i++;
                continue;
            }
            int start = i;
            int j = i + 1;
            if (j < fmt.length() && fmt.charAt(j) == '%') {
                out.append('%');
                i = j + 1;
                continue;
            }
            Spec s = new Spec();
            for (; j < fmt.length() && "-+ #0".indexOf(fmt.charAt(j)) >= 0; j++) {
                switch (fmt.charAt(j)) {
                    case '-' -> s.left = true;
                    case '+' -> s.plus = true;
                    case ' ' -> s.space = true;
                    case '#' -> s.alt = true;
                    default -> s.zero = true;
                }
            }
            boolean starWidth = j < fmt.length() && fmt.charAt(j) == '*';
            if (starWidth) {
                j++;
            } else if (j < fmt.length() && Character.isDigit(fmt.charAt(j))) {
                for (s.width = 0; j < fmt.length() && Character.isDigit(fmt.charAt(j)); j++) s.width = Math.min(MAX_LEN, s.width * 10 + (fmt.charAt(j) - '0'));
            }
            boolean starPrec = false;
            if (j < fmt.length() && fmt.charAt(j) == '.') {
                j++;
                if (j < fmt.length() && fmt.charAt(j) == '*') {
                    starPrec = true;
                    j++;
                } else {
                    for (s.precision = 0; j < fmt.length() && Character.isDigit(fmt.charAt(j)); j++) {
                        s.precision = Math.min(MAX_LEN, s.precision * 10 + (fmt.charAt(j) - '0'));
                    }
                }
            }
            int ls = j;
            while (j < fmt.length() && "hlLqjzt".indexOf(fmt.charAt(j)) >= 0) j++;
            s.length = fmt.substring(ls, j);
            if (j >= fmt.length()) {
                out.append(fmt, start, fmt.length());
                break;
            }
            s.conv = fmt.charAt(j);
            i = j + 1;
            String text = fmt.substring(start, i);
            if ("diouxXcsfFeEgGaAp".indexOf(s.conv) < 0) {
                out.append(text); // not a conversion C knows: printed as written
                continue;
            }
            int needed = 1 + (starWidth ? 1 : 0) + (starPrec ? 1 : 0);
            if (args + needed > MAX_ARGS) {
                out.append(text); // "additional arguments beyond this will be ignored, and the format specifier output as-is"
                continue;
            }
            args += needed;
            if (starWidth) {
                int wv = (int) next(mem, slot, p, 4);
                if (wv < 0) {
                    s.left = true;
                }
                s.width = (int) Math.min(MAX_LEN, Math.abs((long) wv)); // widths are capped: the output is at most MAX_LEN
            }
            if (starPrec) {
                int pv = (int) next(mem, slot, p, 4);
                s.precision = pv < 0 ? -1 : Math.min(MAX_LEN, pv);
            }
            out.append(convert(mem, slot, p, s));
        }
        String t = out.toString();
        return new Result(t.length() > MAX_LEN ? t.substring(0, MAX_LEN) : t, args);
    }

    /** Reads the next argument of {@code size} bytes, aligned to its size. */
    private static long next(Memory mem, int slot, long[] p, int size) {
        p[0] = (p[0] + size - 1) & -size;
        long v = mem.load(Space.GENERIC, p[0], size, slot);
        p[0] += size;
        return v;
    }

    private static boolean wideInt(String length) {
        return length.contains("l") || length.contains("q") || length.contains("j") || length.contains("z") || length.contains("t");
    }

    private static String convert(Memory mem, int slot, long[] p, Spec s) {
        switch (s.conv) {
            case 'd', 'i', 'u', 'x', 'X', 'o' -> {
                long v = wideInt(s.length) ? next(mem, slot, p, 8) : next(mem, slot, p, 4);
                boolean signed = s.conv == 'd' || s.conv == 'i';
                if (!wideInt(s.length)) {
                    if (s.length.equals("hh")) v = signed ? (byte) v : v & 0xFF;
                    else if (s.length.equals("h")) v = signed ? (short) v : v & 0xFFFF;
                    else v = signed ? (int) v : v & 0xFFFFFFFFL;
                }
                return integer(v, signed, s);
            }
            case 'c' -> {
                long v = next(mem, slot, p, 4);
                return pad(String.valueOf((char) (v & 0xFF)), s, false);
            }
            case 's' -> {
                long addr = next(mem, slot, p, 8);
                String str = addr == 0 ? "(null)" : mem.loadString(addr, slot, MAX_LEN);
                if (s.precision >= 0 && str.length() > s.precision) str = str.substring(0, s.precision);
                return pad(str, s, false);
            }
            case 'p' -> {
                long v = next(mem, slot, p, 8);
                return pad(v == 0 ? "(nil)" : "0x" + Long.toHexString(v), s, false);
            }
            default -> {
                double v = Double.longBitsToDouble(next(mem, slot, p, 8));
                return floating(v, s);
            }
        }
    }

    /** Pads to the width: left-justified, zero-filled after {@code signPrefixLen} characters, or right-justified. */
    private static String pad(String body, Spec s, boolean zeroFill) {
        return pad(body, s, zeroFill, 0);
    }

    private static String pad(String body, Spec s, boolean zeroFill, int prefixLen) {
        int n = s.width - body.length();
        if (n <= 0) return body;
        if (s.left) return body + " ".repeat(n);
        if (zeroFill) return body.substring(0, prefixLen) + "0".repeat(n) + body.substring(prefixLen);
        return " ".repeat(n) + body;
    }

    private static String integer(long v, boolean signed, Spec s) {
        boolean neg = signed && v < 0;
        String digits = switch (s.conv) {
            case 'x' -> Long.toHexString(v);
            case 'X' -> Long.toHexString(v).toUpperCase(java.util.Locale.ROOT);
            case 'o' -> Long.toOctalString(v);
            case 'u' -> Long.toUnsignedString(v);
            default -> neg ? (v == Long.MIN_VALUE ? "9223372036854775808" : Long.toString(-v)) : Long.toString(v);
        };
        if (s.precision >= 0) {
            if (s.precision == 0 && v == 0) digits = "";
            if (digits.length() < s.precision) digits = "0".repeat(s.precision - digits.length()) + digits;
        }
        String prefix = "";
        if (signed) prefix = neg ? "-" : s.plus ? "+" : s.space ? " " : "";
        if (s.alt && s.conv == 'o' && !digits.startsWith("0")) digits = "0" + digits;
        if (s.alt && v != 0 && (s.conv == 'x' || s.conv == 'X')) prefix = s.conv == 'x' ? "0x" : "0X";
        return pad(prefix + digits, s, s.zero && !s.left && s.precision < 0, prefix.length());
    }

    private static String floating(double v, Spec s) {
        boolean upper = Character.isUpperCase(s.conv);
        boolean neg = v < 0 || (v == 0 && 1 / v < 0) || (Double.isNaN(v) && Double.doubleToRawLongBits(v) < 0);
        String sign = neg ? "-" : s.plus ? "+" : s.space ? " " : "";
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            String t = Double.isNaN(v) ? "nan" : "inf";
            return pad(sign + (upper ? t.toUpperCase(java.util.Locale.ROOT) : t), s, false);
        }
        double a = Math.abs(v);
        int prec = s.precision < 0 ? 6 : s.precision;
        String body = switch (Character.toLowerCase(s.conv)) {
            case 'f' -> fixed(a, prec, s.alt);
            case 'e' -> exponent(a, prec, s.alt);
            case 'g' -> general(a, s.precision < 0 ? 6 : Math.max(1, s.precision), s.alt);
            default -> hex(a, s.precision);
        };
        if (upper) body = body.toUpperCase(java.util.Locale.ROOT);
        return pad(sign + body, s, s.zero && !s.left, sign.length() + (Character.toLowerCase(s.conv) == 'a' ? 2 : 0));
    }

    private static String fixed(double a, int prec, boolean alt) {
        String t = new BigDecimal(a).setScale(prec, RoundingMode.HALF_EVEN).toPlainString();
        return prec == 0 && alt ? t + "." : t;
    }

    private static String exponent(double a, int prec, boolean alt) {
        String digits;
        int exp;
        if (a == 0) {
            digits = "0".repeat(prec + 1);
            exp = 0;
        } else {
            BigDecimal r = new BigDecimal(a).round(new MathContext(prec + 1, RoundingMode.HALF_EVEN));
            digits = r.unscaledValue().toString();
            exp = r.precision() - r.scale() - 1;
            if (digits.length() < prec + 1) digits = digits + "0".repeat(prec + 1 - digits.length());
            digits = digits.substring(0, prec + 1);
        }
        StringBuilder sb = new StringBuilder().append(digits.charAt(0));
        if (prec > 0 || alt) sb.append('.');
        sb.append(digits, 1, digits.length());
        sb.append('e').append(exp < 0 ? '-' : '+');
        int ae = Math.abs(exp);
        if (ae < 10) sb.append('0');
        return sb.append(ae).toString();
    }

    private static String general(double a, int p, boolean alt) {
        int x;
        if (a == 0) {
            x = 0;
        } else {
            BigDecimal r = new BigDecimal(a).round(new MathContext(p, RoundingMode.HALF_EVEN));
            x = r.precision() - r.scale() - 1;
        }
        String t = (p > x && x >= -4) ? fixed(a, p - 1 - x, alt) : exponent(a, p - 1, alt);
        if (alt) return t;
        int e = t.indexOf('e');
        String mant = e < 0 ? t : t.substring(0, e);
        String tail = e < 0 ? "" : t.substring(e);
        if (mant.indexOf('.') >= 0) {
            mant = mant.replaceAll("0+$", "");
            if (mant.endsWith(".")) mant = mant.substring(0, mant.length() - 1);
        }
        return mant + tail;
    }

    /** %a as glibc prints it: 0x1.8p+0, 0x0p+0, subnormals as 0x0.xxxp-1022. */
    private static String hex(double a, int precision) {
        long bits = Double.doubleToRawLongBits(a);
        int e = (int) ((bits >>> 52) & 0x7FF);
        long frac = bits & 0xFFFFFFFFFFFFFL;
        long lead = e == 0 ? 0 : 1;
        int exp = a == 0 ? 0 : (e == 0 ? -1022 : e - 1023);
        String f;
        if (precision < 0) {
            f = String.format(java.util.Locale.ROOT, "%013x", frac).replaceAll("0+$", "");
        } else {
            int keep = Math.min(precision, 13);
            int drop = 52 - 4 * keep;
            long q = frac >>> drop;
            long rem = frac & ((1L << drop) - 1);
            long half = drop == 0 ? 0 : 1L << (drop - 1);
            if (drop > 0 && (rem > half || (rem == half && (q & 1) != 0))) q++;
            if (keep < 13 && q >>> (4 * keep) != 0) {
                lead++;
                q &= (1L << (4 * keep)) - 1;
            }
            f = keep == 0 ? "" : String.format(java.util.Locale.ROOT, "%0" + keep + "x", q);
            if (precision > 13) f = f + "0".repeat(precision - 13);
        }
        return "0x" + lead + (f.isEmpty() ? "" : "." + f) + "p" + (exp < 0 ? "-" : "+") + Math.abs(exp);
    }
}
