package io.barrierscope.exec;

/**
 * Formats a device printf the way the CUDA runtime does: the format string is read from device
 * memory and each argument from the packed argument buffer, aligned to its own size.
 */
final class DevicePrintf {
    private DevicePrintf() {}

    static final int MAX_LEN = 4096;

    static String format(Memory mem, int slot, long fmtAddr, long argAddr) {
        String fmt = mem.loadString(fmtAddr, slot, MAX_LEN);
        StringBuilder out = new StringBuilder();
        long p = argAddr;
        for (int i = 0; i < fmt.length() && out.length() < MAX_LEN; i++) {
            char ch = fmt.charAt(i);
            if (ch != '%') {
                out.append(ch);
                continue;
            }
            int j = i + 1;
            StringBuilder spec = new StringBuilder("%");
            while (j < fmt.length() && "-+ #0".indexOf(fmt.charAt(j)) >= 0) spec.append(fmt.charAt(j++));
            while (j < fmt.length() && (Character.isDigit(fmt.charAt(j)) || fmt.charAt(j) == '.')) spec.append(fmt.charAt(j++));
            int longs = 0;
            while (j < fmt.length() && "hlLqjzt".indexOf(fmt.charAt(j)) >= 0) {
                if (fmt.charAt(j) == 'l' || fmt.charAt(j) == 'L' || fmt.charAt(j) == 'q' || fmt.charAt(j) == 'j'
                        || fmt.charAt(j) == 'z' || fmt.charAt(j) == 't') longs++;
                j++;
            }
            if (j >= fmt.length()) {
                out.append(fmt, i, fmt.length());
                break;
            }
            char conv = fmt.charAt(j);
            i = j;
            switch (conv) {
                case '%' -> out.append('%');
                case 'd', 'i', 'u', 'x', 'X', 'o', 'c' -> {
                    int size = longs > 0 ? 8 : 4;
                    p = align(p, size);
                    long v = mem.load(Space.GENERIC, p, size, slot);
                    p += size;
                    if (size == 4) v = (conv == 'd' || conv == 'i') ? (long) (int) v : v & 0xFFFFFFFFL;
                    String s = spec.toString();
                    out.append(switch (conv) {
                        case 'u' -> String.format(s + "s", Long.toUnsignedString(v));
                        case 'c' -> String.format(s + "c", (char) (v & 0xFF));
                        case 'x', 'X', 'o' -> String.format(s + conv, v);
                        default -> String.format(s + "d", v);
                    });
                }
                case 'f', 'F', 'e', 'E', 'g', 'G', 'a', 'A' -> {
                    p = align(p, 8);
                    double v = Double.longBitsToDouble(mem.load(Space.GENERIC, p, 8, slot));
                    p += 8;
                    out.append(String.format(spec.toString() + (conv == 'F' ? 'f' : conv), v));
                }
                case 's' -> {
                    p = align(p, 8);
                    long sp = mem.load(Space.GENERIC, p, 8, slot);
                    p += 8;
                    out.append(String.format(spec + "s", sp == 0 ? "(null)" : mem.loadString(sp, slot, MAX_LEN)));
                }
                case 'p' -> {
                    p = align(p, 8);
                    out.append("0x").append(Long.toHexString(mem.load(Space.GENERIC, p, 8, slot)));
                    p += 8;
                }
                default -> out.append(fmt, spec.length() > 0 ? i - spec.length() : i, i + 1);
            }
        }
        return out.toString();
    }

    private static long align(long p, int a) { return (p + a - 1) & -a; }
}
