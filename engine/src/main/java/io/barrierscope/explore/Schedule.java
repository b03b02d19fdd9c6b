package io.barrierscope.explore;

import io.barrierscope.launch.BadInputException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A replayable schedule: the non-default scheduling decisions of one run, by decision index.
 * Every other decision takes the default of {@link SchedulePolicy}, so the string stays short.
 * Printed as {@code s1:} then entries {@code GAP KIND VALUE} joined by commas, where GAP is the
 * number of default decisions since the previous entry, e.g. {@code s1:12w3,0t1,40a20000}.
 * Only shell-safe characters, so it can be pasted into a command line unquoted.
 */
public final class Schedule {
    public static final String PREFIX = "s1:";
    /** Longest schedule string accepted (untrusted input is bounded before allocating). */
    public static final int MAX_CHARS = 4 << 20;

    private final long[] index;
    private final char[] kind;
    private final long[] value;

    /** The default schedule: no forced decisions. */
    public static final Schedule EMPTY = new Schedule(new long[0], new char[0], new long[0]);

    Schedule(long[] index, char[] kind, long[] value) {
        this.index = index;
        this.kind = kind;
        this.value = value;
    }

    public int size() { return index.length; }
    public long index(int i) { return index[i]; }
    public char kind(int i) { return kind[i]; }
    public long value(int i) { return value[i]; }

    /** This schedule with one more entry, which must come after every entry it has. */
    public Schedule with(long at, char k, long v) {
        if (size() > 0 && at <= index[size() - 1]) throw new IllegalArgumentException("entries must be in decision order");
        long[] i2 = Arrays.copyOf(index, size() + 1);
        char[] k2 = Arrays.copyOf(kind, size() + 1);
        long[] v2 = Arrays.copyOf(value, size() + 1);
        i2[size()] = at;
        k2[size()] = k;
        v2[size()] = v;
        return new Schedule(i2, k2, v2);
    }

    /** The entries before decision {@code at}. */
    public Schedule before(long at) {
        int n = 0;
        while (n < size() && index[n] < at) n++;
        return n == size() ? this : new Schedule(Arrays.copyOf(index, n), Arrays.copyOf(kind, n), Arrays.copyOf(value, n));
    }

    /** The position of the first entry at or after decision {@code at}. */
    int firstAtOrAfter(long at) {
        int lo = 0;
        int hi = size();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (index[mid] < at) lo = mid + 1;
            else hi = mid;
        }
        return lo;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(PREFIX);
        long prev = -1;
        for (int i = 0; i < size(); i++) {
            if (i > 0) sb.append(',');
            sb.append(index[i] - prev - 1).append(kind[i]).append(value[i]);
            prev = index[i];
        }
        return sb.toString();
    }

    @Override
    public boolean equals(Object o) { return o instanceof Schedule s && s.toString().equals(toString()); }

    @Override
    public int hashCode() { return toString().hashCode(); }

    /** Reads a schedule string; anything malformed is bad input with a message naming the column. */
    public static Schedule parse(String text) {
        if (text == null) throw new BadInputException("error: no schedule given");
        String s = text.strip();
        if (s.length() > MAX_CHARS) throw new BadInputException("error: the schedule is longer than " + MAX_CHARS + " characters");
        if (!s.startsWith(PREFIX)) {
            if (s.matches("s[0-9]+:.*")) {
                throw new BadInputException("error: schedule version '" + s.substring(0, s.indexOf(':') + 1)
                        + "' is not supported; this BarrierScope reads " + PREFIX + " schedules");
            }
            throw new BadInputException("error: '" + abbreviate(s) + "' is not a schedule string (it starts with "
                    + PREFIX + ", as printed by barrierscope explore)");
        }
        List<long[]> entries = new ArrayList<>();
        int p = PREFIX.length();
        long prev = -1;
        while (p < s.length()) {
            int start = p;
            long gap = 0;
            int digits = 0;
            // ASCII digits only (Character.isDigit would take other scripts' digits and misread them).
            while (p < s.length() && ascii(s.charAt(p))) {
                if (++digits > 13) throw bad(s, start, "a gap has at most 13 digits");
                gap = gap * 10 + (s.charAt(p++) - '0');
            }
            if (digits == 0 || p >= s.length() || "wgat".indexOf(s.charAt(p)) < 0) {
                throw bad(s, p, "expected GAP KIND VALUE (a number, one of w g a t, a number)");
            }
            char k = s.charAt(p++);
            long v = 0;
            digits = 0;
            int vStart = p;
            while (p < s.length() && ascii(s.charAt(p))) {
                if (++digits > 10) throw bad(s, vStart, "the value of the '" + k + "' decision is too large");
                v = v * 10 + (s.charAt(p++) - '0');
            }
            if (digits == 0) throw bad(s, p, "expected the value of the '" + k + "' decision");
            if (v > Integer.MAX_VALUE) throw bad(s, start, "value " + v + " is too large");
            if (k == 't' && v > 1) throw bad(s, start, "a try_wait decision is 0 (suspend) or 1 (return false early)");
            if (k == 'a' && v < 1) throw bad(s, start, "an async latency is at least 1 cycle");
            if (p < s.length()) {
                if (s.charAt(p) != ',') throw bad(s, p, "expected ',' between entries");
                p++;
                if (p == s.length()) throw bad(s, p, "the schedule ends with ','");
            }
            prev = Math.addExact(prev, 1 + gap); // at most MAX_CHARS entries of 13 digits: cannot wrap, checked anyway
            entries.add(new long[] {prev, k, v});
        }
        long[] idx = new long[entries.size()];
        char[] kinds = new char[entries.size()];
        long[] vals = new long[entries.size()];
        for (int i = 0; i < idx.length; i++) {
            idx[i] = entries.get(i)[0];
            kinds[i] = (char) entries.get(i)[1];
            vals[i] = entries.get(i)[2];
        }
        return new Schedule(idx, kinds, vals);
    }

    private static boolean ascii(char c) { return c >= '0' && c <= '9'; }

    private static BadInputException bad(String s, int col, String what) {
        return new BadInputException("error: malformed schedule at column " + (col + 1) + ": " + what + "\n  "
                + abbreviate(s) + "\n  " + " ".repeat(Math.min(col, 60)) + "^");
    }

    private static String abbreviate(String s) { return s.length() <= 70 ? s : s.substring(0, 67) + "..."; }
}
