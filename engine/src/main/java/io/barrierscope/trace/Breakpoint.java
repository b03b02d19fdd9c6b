package io.barrierscope.trace;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A breakpoint: where or on what event a run stops, with conditions on the cluster, CTA, warp and
 * thread concerned and a hit count. Line breakpoints stop before the instruction executes;
 * event breakpoints stop right after the warp step in which the event happened.
 *
 * <p>Written as {@code KIND[:ARG][,KEY=VALUE]...} on the command line and in the window:
 * {@code line:42}, {@code line:kernel.cu:17}, {@code barrier}, {@code barrier:1},
 * {@code mbarrier}, {@code mbarrier:full}, {@code mbarrier:0x18,phase=3}, {@code tx-zero:full},
 * {@code arrive,warp=2}, {@code wait-false}, {@code park}, {@code deadlock},
 * {@code diagnostic}, {@code diagnostic:mbarrier-stale-token}; keys cluster, cta, warp (in its
 * CTA), thread (in its CTA), phase, hits (stop at the N-th hit).
 */
public final class Breakpoint {
    public enum Kind {
        /** A PTX line is about to execute. */
        LINE("line"),
        /** The first instruction of a CUDA source line is about to execute. */
        CUDA_LINE("line"),
        /** A CTA barrier generation completes (any barrier, or the one with id {@link #barrierId}). */
        BARRIER("barrier"),
        /** An mbarrier phase completes. */
        MBARRIER("mbarrier"),
        /** An mbarrier's tx-count returns to zero by a complete-tx. */
        TX_ZERO("tx-zero"),
        /** A thread or warp arrives (CTA barrier, mbarrier or cluster barrier). */
        ARRIVE("arrive"),
        /** try_wait / test_wait returns false. */
        WAIT_FALSE("wait-false"),
        /** A thread parks (polls an mbarrier that cannot change). */
        PARK("park"),
        /** The run ends in deadlock. */
        DEADLOCK("deadlock"),
        /** A diagnostic is reported (any, or the code in {@link #code}). */
        DIAGNOSTIC("diagnostic");

        public final String word;

        Kind(String word) { this.word = word; }
    }

    public final Kind kind;
    /** PTX line, or CUDA line with {@link #file}. */
    public final int line;
    public final String file;
    /** CTA barrier id, or -1 for any. */
    public final int barrierId;
    /** mbarrier variable name (as in the source), or null. */
    public final String variable;
    /** mbarrier shared offset, or -1. */
    public final long offset;
    /** Phase the mbarrier completes, or -1 for any. */
    public final long phase;
    /** Diagnostic code, or null for any. */
    public final String code;
    public final int cluster;
    public final int cta;
    public final int warp;
    public final int thread;
    /** Stop at this hit (1: every hit from the first on). */
    public final long hitTarget;
    private final String text;

    public boolean enabled = true;
    /** Times the breakpoint matched on forward execution since it was set. */
    public long hits;

    private Breakpoint(Kind kind, int line, String file, int barrierId, String variable, long offset, long phase, String code,
                       int cluster, int cta, int warp, int thread, long hitTarget, String text) {
        this.kind = kind;
        this.line = line;
        this.file = file;
        this.barrierId = barrierId;
        this.variable = variable;
        this.offset = offset;
        this.phase = phase;
        this.code = code;
        this.cluster = cluster;
        this.cta = cta;
        this.warp = warp;
        this.thread = thread;
        this.hitTarget = hitTarget;
        this.text = text;
    }

    /**
     * The breakpoint a spec describes; a bad spec throws IllegalArgumentException with a message
     * for people naming the character where it goes wrong (1-based, in the spec as given).
     */
    public static Breakpoint parse(String spec) {
        String s = spec.trim();
        if (s.isEmpty()) throw new IllegalArgumentException("empty breakpoint");
        int lead = spec.indexOf(s);
        // Parts split at commas, each with the position of its first character in spec.
        List<String> parts = new ArrayList<>();
        List<Integer> at = new ArrayList<>();
        int from = 0;
        for (int k = 0; k <= s.length(); k++) {
            if (k == s.length() || s.charAt(k) == ',') {
                parts.add(s.substring(from, k));
                at.add(lead + from);
                from = k + 1;
            }
        }
        String head = parts.get(0).trim();
        int headAt = at.get(0);
        if (head.isEmpty()) {
            throw bad(spec, headAt, "expected a kind first (line, barrier, mbarrier, tx-zero, arrive, wait-false, park, deadlock, diagnostic)");
        }
        int colon = head.indexOf(':');
        String word = (colon < 0 ? head : head.substring(0, colon)).toLowerCase(Locale.ROOT);
        String arg = colon < 0 ? null : head.substring(colon + 1);
        int argAt = headAt + colon + 1;
        int cluster = -1, cta = -1, warp = -1, thread = -1;
        long phase = -1, hits = 1;
        for (int i = 1; i < parts.size(); i++) {
            String raw = parts.get(i);
            String kv = raw.trim();
            int kvAt = at.get(i) + raw.indexOf(kv.isEmpty() ? raw : kv);
            int eq = kv.indexOf('=');
            if (eq < 0) throw bad(spec, kvAt, "expected KEY=VALUE, got '" + kv + "'");
            String k = kv.substring(0, eq).trim().toLowerCase(Locale.ROOT);
            String vt = kv.substring(eq + 1);
            int vAt = kvAt + eq + 1 + (vt.length() - vt.stripLeading().length());
            switch (k) {
                case "cluster" -> cluster = (int) number(spec, vt.trim(), vAt, 0, Integer.MAX_VALUE, k);
                case "cta" -> cta = (int) number(spec, vt.trim(), vAt, 0, Integer.MAX_VALUE, k);
                case "warp" -> warp = (int) number(spec, vt.trim(), vAt, 0, Integer.MAX_VALUE, k);
                case "thread" -> thread = (int) number(spec, vt.trim(), vAt, 0, Integer.MAX_VALUE, k);
                case "phase" -> phase = number(spec, vt.trim(), vAt, 0, Long.MAX_VALUE, k);
                case "hits" -> hits = number(spec, vt.trim(), vAt, 1, Long.MAX_VALUE, k);
                default -> throw bad(spec, kvAt, "unknown key '" + k + "' (known: cluster, cta, warp, thread, phase, hits)");
            }
        }
        Kind kind;
        int line = -1, barrierId = -1;
        String file = null, variable = null, code = null;
        long offset = -1;
        switch (word) {
            case "line" -> {
                if (arg == null) throw bad(spec, headAt, "line needs a number (line:42 or line:kernel.cu:17)");
                int c = arg.lastIndexOf(':');
                if (c < 0) {
                    kind = Kind.LINE;
                    line = (int) number(spec, arg, argAt, 1, Integer.MAX_VALUE, "line");
                } else {
                    kind = Kind.CUDA_LINE;
                    file = arg.substring(0, c);
                    line = (int) number(spec, arg.substring(c + 1), argAt + c + 1, 1, Integer.MAX_VALUE, "line");
                }
            }
            case "barrier" -> {
                kind = Kind.BARRIER;
                if (arg != null) barrierId = (int) number(spec, arg, argAt, 0, 15, "CTA barrier id");
            }
            case "mbarrier", "tx-zero" -> {
                kind = word.equals("mbarrier") ? Kind.MBARRIER : Kind.TX_ZERO;
                if (arg != null && !arg.isEmpty()) {
                    if (arg.charAt(0) >= '0' && arg.charAt(0) <= '9') offset = number(spec, arg, argAt, 0, Long.MAX_VALUE, "offset");
                    else variable = arg;
                }
            }
            case "arrive" -> kind = Kind.ARRIVE;
            case "wait-false" -> kind = Kind.WAIT_FALSE;
            case "park" -> kind = Kind.PARK;
            case "deadlock" -> kind = Kind.DEADLOCK;
            case "diagnostic" -> {
                kind = Kind.DIAGNOSTIC;
                code = arg;
                if (code != null && io.barrierscope.diag.DiagnosticCode.byCode(code) == null) {
                    throw bad(spec, argAt, "unknown diagnostic code '" + code + "'");
                }
            }
            default -> throw bad(spec, headAt, "unknown kind '" + word
                    + "' (known: line, barrier, mbarrier, tx-zero, arrive, wait-false, park, deadlock, diagnostic)");
        }
        if (phase >= 0 && kind != Kind.MBARRIER && kind != Kind.BARRIER) {
            throw new IllegalArgumentException("breakpoint '" + spec + "': phase= applies to mbarrier and barrier breakpoints");
        }
        boolean needsArg = (arg == null || arg.isEmpty());
        if (!needsArg && (kind == Kind.ARRIVE || kind == Kind.WAIT_FALSE || kind == Kind.PARK || kind == Kind.DEADLOCK)) {
            throw bad(spec, argAt, word + " takes no argument; use warp=, thread=, cta=");
        }
        return new Breakpoint(kind, line, file, barrierId, variable, offset, phase, code, cluster, cta, warp, thread, hits, s);
    }

    private static IllegalArgumentException bad(String spec, int at, String msg) {
        return new IllegalArgumentException("breakpoint '" + spec + "': at character " + (at + 1) + ": " + msg);
    }

    /**
     * A decimal or 0x-hex number of ASCII digits, starting at character {@code at} of spec, within
     * min..max. It is parsed exactly (never narrowed before the range check); a non-digit or a value
     * out of range is refused at its character.
     */
    static long number(String spec, String t, int at, long min, long max, String what) {
        boolean hex = t.startsWith("0x") || t.startsWith("0X");
        int radix = hex ? 16 : 10;
        int start = hex ? 2 : 0;
        if (t.length() == start) throw bad(spec, at + start, what + " needs a number" + (hex ? " after 0x" : ""));
        java.math.BigInteger v = java.math.BigInteger.ZERO;
        for (int k = start; k < t.length(); k++) {
            char c = t.charAt(k);
            int d = c >= '0' && c <= '9' ? c - '0' : hex && c >= 'a' && c <= 'f' ? c - 'a' + 10 : hex && c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
            if (d < 0) {
                throw bad(spec, at + k, "'" + t + "' is not a number ('" + c + "' is not a" + (hex ? " hex" : "n ASCII") + " digit; "
                        + what + " is a number)");
            }
            v = v.multiply(java.math.BigInteger.valueOf(radix)).add(java.math.BigInteger.valueOf(d));
            if (v.bitLength() > 64) break;
        }
        if (v.compareTo(java.math.BigInteger.valueOf(min)) < 0 || v.compareTo(java.math.BigInteger.valueOf(max)) > 0) {
            throw bad(spec, at, what + " " + (v.bitLength() > 64 ? t : v.toString()) + " is outside " + min + ".." + max);
        }
        return v.longValue();
    }

    /** Whether it stops before the instruction (line breakpoints) rather than after the event's step. */
    public boolean stopsBefore() { return kind == Kind.LINE || kind == Kind.CUDA_LINE; }

    /** The conditions, for lists. */
    public List<String> conditions() {
        List<String> c = new ArrayList<>();
        if (cluster >= 0) c.add("cluster=" + cluster);
        if (cta >= 0) c.add("cta=" + cta);
        if (warp >= 0) c.add("warp=" + warp);
        if (thread >= 0) c.add("thread=" + thread);
        if (phase >= 0) c.add("phase=" + phase);
        if (hitTarget > 1) c.add("hits=" + hitTarget);
        return c;
    }

    /** The spec it was parsed from (normalised whitespace). */
    public String spec() { return text; }

    @Override
    public String toString() { return text; }
}
