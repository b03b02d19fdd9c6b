package io.barrierscope.exec;

/** Lane masks written for people. */
public final class Lanes {
    private Lanes() {}

    /** The lanes of a mask as ranges, e.g. "0-15,20". */
    public static String ranges(int lanes) {
        StringBuilder sb = new StringBuilder();
        int l = 0;
        while (l < 32) {
            if ((lanes & (1 << l)) == 0) {
                l++;
                continue;
            }
            int start = l;
            while (l < 32 && (lanes & (1 << l)) != 0) l++;
            if (sb.length() > 0) sb.append(',');
            sb.append(start);
            if (l - 1 > start) sb.append('-').append(l - 1);
        }
        return sb.toString();
    }
}
