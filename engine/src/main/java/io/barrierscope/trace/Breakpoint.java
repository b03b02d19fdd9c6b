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

    /** The breakpoint a spec describes; a bad spec throws IllegalArgumentException with a message for people. */
    public static Breakpoint parse(String spec) {
        String s = spec.trim();
        if (s.isEmpty()) throw new IllegalArgumentException("empty breakpoint");
        String[] parts = s.split(",");
        String head = parts[0].trim();
        int colon = head.indexOf(':');
        String word = (colon < 0 ? head : head.substring(0, colon)).toLowerCase(Locale.ROOT);
        String arg = colon < 0 ? null : head.substring(colon + 1);
        int cluster = -1, cta = -1, warp = -1, thread = -1;
        long phase = -1, hits = 1;
        for (int i = 1; i < parts.length; i++) {
            String kv = parts[i].trim();
            int eq = kv.indexOf('=');
            if (eq < 0) throw new IllegalArgumentException("breakpoint '" + spec + "': expected KEY=VALUE, got '" + kv + "'");
            String k = kv.substring(0, eq).trim().toLowerCase(Locale.ROOT);
            long v = number(spec, kv.substring(eq + 1).trim());
            switch (k) {
                case "cluster" -> cluster = (int) nonNegative(spec, k, v);
                case "cta" -> cta = (int) nonNegative(spec, k, v);
                case "warp" -> warp = (int) nonNegative(spec, k, v);
                case "thread" -> thread = (int) nonNegative(spec, k, v);
                case "phase" -> phase = nonNegative(spec, k, v);
                case "hits" -> {
                    if (v < 1) throw new IllegalArgumentException("breakpoint '" + spec + "': hits must be at least 1");
                    hits = v;
                }
                default -> throw new IllegalArgumentException("breakpoint '" + spec + "': unknown key '" + k
                        + "' (known: cluster, cta, warp, thread, phase, hits)");
            }
        }
        Kind kind;
        int line = -1, barrierId = -1;
        String file = null, variable = null, code = null;
        long offset = -1;
        switch (word) {
            case "line" -> {
                if (arg == null) throw new IllegalArgumentException("breakpoint '" + spec + "': line needs a number (line:42 or line:kernel.cu:17)");
                int c = arg.lastIndexOf(':');
                if (c < 0) {
                    kind = Kind.LINE;
                    line = (int) positive(spec, number(spec, arg));
                } else {
                    kind = Kind.CUDA_LINE;
                    file = arg.substring(0, c);
                    line = (int) positive(spec, number(spec, arg.substring(c + 1)));
                }
            }
            case "barrier" -> {
                kind = Kind.BARRIER;
                if (arg != null) {
                    barrierId = (int) number(spec, arg);
                    if (barrierId < 0 || barrierId > 15) throw new IllegalArgumentException("breakpoint '" + spec + "': CTA barrier ids are 0..15");
                }
            }
            case "mbarrier", "tx-zero" -> {
                kind = word.equals("mbarrier") ? Kind.MBARRIER : Kind.TX_ZERO;
                if (arg != null && !arg.isEmpty()) {
                    if (Character.isDigit(arg.charAt(0))) offset = nonNegative(spec, "offset", number(spec, arg));
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
                if (code != null && io.barrierscope.check.DiagnosticCode.byCode(code) == null) {
                    throw new IllegalArgumentException("breakpoint '" + spec + "': unknown diagnostic code '" + code + "'");
                }
            }
            default -> throw new IllegalArgumentException("breakpoint '" + spec + "': unknown kind '" + word
                    + "' (known: line, barrier, mbarrier, tx-zero, arrive, wait-false, park, deadlock, diagnostic)");
        }
        if (phase >= 0 && kind != Kind.MBARRIER && kind != Kind.BARRIER) {
            throw new IllegalArgumentException("breakpoint '" + spec + "': phase= applies to mbarrier and barrier breakpoints");
        }
        boolean needsArg = (arg == null || arg.isEmpty());
        if (!needsArg && (kind == Kind.ARRIVE || kind == Kind.WAIT_FALSE || kind == Kind.PARK || kind == Kind.DEADLOCK)) {
            throw new IllegalArgumentException("breakpoint '" + spec + "': " + word + " takes no argument; use warp=, thread=, cta=");
        }
        return new Breakpoint(kind, line, file, barrierId, variable, offset, phase, code, cluster, cta, warp, thread, hits, s);
    }

    private static long number(String spec, String t) {
        try {
            return t.startsWith("0x") || t.startsWith("0X") ? Long.parseLong(t.substring(2), 16) : Long.parseLong(t);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("breakpoint '" + spec + "': '" + t + "' is not a number");
        }
    }

    private static long nonNegative(String spec, String k, long v) {
        if (v < 0) throw new IllegalArgumentException("breakpoint '" + spec + "': " + k + " must not be negative");
        return v;
    }

    private static long positive(String spec, long v) {
        if (v < 1) throw new IllegalArgumentException("breakpoint '" + spec + "': lines start at 1");
        return v;
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
