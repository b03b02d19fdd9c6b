package io.barrierscope.explore;

import io.barrierscope.exec.AsyncLatency;
import io.barrierscope.exec.Interpreter;
import io.barrierscope.exec.Machine;
import io.barrierscope.exec.Op;
import io.barrierscope.exec.Policy;
import io.barrierscope.exec.SplitMix64;
import io.barrierscope.launch.BadInputException;
import java.util.Arrays;

/**
 * A policy that follows a {@link Schedule} and records every decision it takes, so any run it
 * drives can be printed as a schedule string and replayed exactly.
 *
 * <p>Decision points are only where the choice can matter (a reduction, docs/explore.md): a warp
 * whose next instruction is local (registers, local/param/const memory, branches) keeps running,
 * so a new warp decision arises only before a synchronizing or shared/global-memory instruction,
 * an exit, or when the running warp blocks. Defaults (taken where the schedule says nothing):
 * keep the current warp (CHESS-style; switching away from a runnable warp is a preemption),
 * except after {@link #FAIR_STREAK} visible steps in a row, so a warp spinning on a flag cannot
 * starve the others; lowest-PC convergence group (every 16th divergent step the highest, as
 * round-robin does); async latency {@link #DEFAULT_LATENCY} (or the middle of the launch's run.latency); try_wait suspends.
 */
public final class SchedulePolicy implements Policy {
    public static final char WARP = 'w';
    public static final char GROUP = 'g';
    public static final char LATENCY = 'a';
    public static final char TRY_WAIT = 't';
    public static final long DEFAULT_LATENCY = 100;
    /** A copy that completes after the default try_wait suspend limit (10000): "late". */
    public static final long LATE_LATENCY = 20_000;
    public static final long EARLY_LATENCY = 1;
    static final int FAIR_STREAK = 64;

    /** Told of each decision point while recording (exploration). */
    public interface PointListener {
        /** Decision {@code index} of {@code kind} took {@code chosen}; {@code alternatives[0..n)} could have been taken instead. */
        void point(long index, char kind, long chosen, long[] alternatives, int n);
    }

    /** The latency taken where the schedule says nothing, and the late alternative (after the try_wait limit). */
    private long defaultLatency = DEFAULT_LATENCY;
    private long lateLatency = LATE_LATENCY;

    private Schedule plan = Schedule.EMPTY;
    private int cursor;
    /** Random deviation at each decision point with probability 1/randomOdds (0: never). */
    private SplitMix64 random;
    private int randomOdds;
    private PointListener listener;
    private long listenFrom;
    private DecisionObserver observer;
    /** Minimisation: a plan entry that does not fit its decision is dropped (the default taken) instead of refused. */
    private boolean lenient;

    // Run state (saveState): decision counter, current warp, visible streak, divergent-step counter.
    private long decisions;
    private int current = -1;
    private int streak;
    private long divergent;
    /** Index of the last warp decision (source sets: the point a step's reversal forks at); not run state. */
    private long lastWarpPoint = -1;

    /** The non-default decisions taken, in order: what {@link #taken} prints. */
    private long[] takenIndex = new long[16];
    private char[] takenKind = new char[16];
    private long[] takenValue = new long[16];
    private int takenCount;

    private boolean[] visible;
    /** Whether the warp decision being taken would keep a warp that can go on (a switch is a preemption). */
    private boolean preemptible;
    /** The alternatives of the decision being taken (scratch; grows to the launch's warps: every runnable warp is offered). */
    private long[] alts = new long[64];
    private final int[] warpScratch = new int[64];

    public SchedulePolicy() {}

    public SchedulePolicy(Schedule plan) { follow(plan); }

    /** Follows {@code s} from the current decision on (entries before it are assumed already taken). */
    public void follow(Schedule s) {
        plan = s;
        cursor = s.firstAtOrAfter(decisions);
    }

    /** Deviates from the default at random (seeded) with probability 1/odds at each decision point; null to stop. */
    public void randomize(SplitMix64 rng, int odds) {
        random = rng;
        randomOdds = odds;
    }

    /** Told of every decision as it is taken, with the default it replaced (minimisation's explanations). */
    public interface DecisionObserver {
        /** Decision {@code index} of {@code kind} took {@code chosen} where the default was {@code def}; {@code preemption}: a warp switch away from a warp that could go on. */
        void decided(long index, char kind, long def, long chosen, boolean preemption);
    }

    /** Tells {@code o} of every decision from now on; null to stop. Called before the decision takes effect. */
    public void observe(DecisionObserver o) { observer = o; }

    /** With {@code on}, plan entries that do not fit are skipped, never refused (candidate schedules of the minimiser). */
    public void lenient(boolean on) { lenient = on; }

    /** Reports decision points with index >= from to {@code l}; null to stop. */
    public void listen(PointListener l, long from) {
        listener = l;
        listenFrom = from;
    }

    public long decisions() { return decisions; }

    /** The index of the last warp decision taken (a step preceded by one ran the warp it chose), or -1. */
    long lastWarpPoint() { return lastWarpPoint; }

    /**
     * Whether the warp decision being taken could keep a warp that can go on, so any other choice
     * is a preemption (read by a {@link DecisionObserver}: false at a free choice, where the running
     * warp blocked, exited or used up its fair streak, and at the first decision).
     */
    boolean preemptible() { return preemptible; }

    /** The warp the last warp decision chose (the one stepping now), or -1 before the first. */
    public int currentWarp() { return current; }

    /** The schedule of the run so far: every non-default decision taken. */
    public Schedule taken() {
        return new Schedule(Arrays.copyOf(takenIndex, takenCount), Arrays.copyOf(takenKind, takenCount),
                Arrays.copyOf(takenValue, takenCount));
    }

    /** Entries of the plan the run has not reached (a replay that ends early does not match). */
    public int unconsumed() { return plan.size() - cursor; }

    @Override
    public String name() { return "schedule"; }

    private boolean visible(Interpreter x, int pc) {
        if (visible == null) {
            int n = x.machine().program.code.length;
            visible = new boolean[n];
            for (int i = 0; i < n; i++) visible[i] = isVisible(x.op(i));
        }
        return visible[pc];
    }

    /** Whether an instruction can affect or observe another thread (so the order around it matters). */
    static boolean isVisible(Op op) {
        if (op == null || op.insn == null) return false;
        if (op.isSynchronizing()) return true;
        var in = op.insn;
        return switch (in.opcode()) {
            case "ld", "st", "ldu", "atom", "red", "prefetch", "ldmatrix", "stmatrix" ->
                    !(in.has(".local") || in.has(".param") || in.has(".const"));
            case "cp", "mbarrier", "bar", "barrier", "fence", "membar", "exit", "ret", "trap", "brkpt",
                    "multimem", "cvta", "mapa", "getctarank", "griddepcontrol", "tensormap", "wgmma", "cp.async" -> true;
            default -> false;
        };
    }

    private int firstLanePc(Machine m, int w) { return m.pc[(w << 5) + Integer.numberOfTrailingZeros(m.runMask[w])]; }

    @Override
    public int pickWarp(Interpreter x) {
        Machine m = x.machine();
        int cur = current;
        if (cur >= 0 && m.runMask[cur] != 0 && !visible(x, firstLanePc(m, cur))) return cur; // local work: no decision
        int n = 0;
        int[] ws = warpScratch.length >= m.warps ? warpScratch : new int[m.warps];
        for (int w = 0; w < m.warps; w++) if (m.runMask[w] != 0) ws[n++] = w;
        if (n == 0) return -1;
        boolean keep = cur >= 0 && m.runMask[cur] != 0 && streak < FAIR_STREAK;
        int def;
        if (keep) {
            def = cur;
        } else {
            // Round-robin from the current warp: fair, and free (not a preemption) when it blocked.
            def = ws[0];
            for (int i = 0; i < n; i++) {
                if (ws[i] > cur) {
                    def = ws[i];
                    break;
                }
            }
        }
        int w = def;
        if (n > 1) {
            if (alts.length < n) alts = new long[n];
            int k = 0;
            for (int i = 0; i < n; i++) if (ws[i] != def) alts[k++] = ws[i];
            int count = n;
            preemptible = keep;
            lastWarpPoint = decisions;
            w = (int) decide(WARP, def, k, v -> v >= 0 && v < m.warps && m.runMask[(int) v] != 0,
                    () -> "runnable warps " + list(ws, count));
            preemptible = false;
        }
        streak = w == cur ? streak + 1 : 0;
        current = w;
        return w;
    }

    @Override
    public int pickGroup(Interpreter x, int warp) {
        Machine m = x.machine();
        int run = m.runMask[warp];
        int first = Policy.sameLanes(m, warp, run, Integer.numberOfTrailingZeros(run));
        if (first == run) return run;
        divergent++;
        int def = divergent % 16 == 0 ? Policy.highestPcGroup(m, warp, run) : Policy.lowestPcGroup(m, warp, run);
        // Groups are named by their lowest lane; only worth a decision when one of them is visible.
        int k = 0;
        boolean anyVisible = false;
        for (int r = run; r != 0; ) {
            int l = Integer.numberOfTrailingZeros(r);
            int g = Policy.sameLanes(m, warp, r, l);
            r &= ~g;
            anyVisible |= visible(x, m.pc[(warp << 5) + l]);
            if (g != def && k < alts.length) alts[k++] = l;
        }
        if (!anyVisible) return def;
        int lane = (int) decide(GROUP, Integer.numberOfTrailingZeros(def), k,
                v -> v >= 0 && v < 32 && (run & (1 << v)) != 0, () -> "runnable lanes 0x" + Integer.toHexString(run));
        return Policy.sameLanes(m, warp, run, lane);
    }

    @Override
    public long asyncLatency() {
        alts[0] = EARLY_LATENCY;
        alts[1] = lateLatency;
        return decide(LATENCY, defaultLatency, 2, v -> v >= 1, () -> "a latency of at least 1");
    }

    /** A launch with a latency model: its middle is the default, and late stays later than it. */
    @Override
    public void useLatency(AsyncLatency latency) {
        defaultLatency = latency.middle();
        lateLatency = Math.max(LATE_LATENCY, 2 * defaultLatency);
    }

    @Override
    public boolean tryWaitReturnsEarly() {
        alts[0] = 1;
        return decide(TRY_WAIT, 0, 1, v -> v == 0 || v == 1, () -> "0 or 1") == 1;
    }

    /**
     * One decision point: the plan's entry if it has one for this index (checked against what is
     * possible here), else a random deviation, else the default. Records non-default choices.
     */
    private long decide(char kind, long def, int nAlts, java.util.function.LongPredicate valid,
                        java.util.function.Supplier<String> possible) {
        long idx = decisions++;
        long v = def;
        if (cursor < plan.size() && plan.index(cursor) == idx) {
            char k = plan.kind(cursor);
            long pv = plan.value(cursor);
            if ((k != kind || !valid.test(pv)) && lenient) {
                pv = def;
            } else if (k != kind || !valid.test(pv)) {
                throw new BadInputException("error: the schedule does not match this launch: decision " + idx + " is "
                        + describe(kind) + " (possible: " + possible.get() + ") but the schedule says '" + k + pv + "'");
            }
            cursor++;
            v = pv;
        } else if (random != null && randomOdds > 0 && nAlts > 0 && random.nextInt(randomOdds) == 0) {
            v = alts[random.nextInt(nAlts)];
        }
        if (listener != null && idx >= listenFrom) {
            // The alternatives to v: the default's alternatives, with the default in place of v.
            long[] a = new long[nAlts];
            int n = 0;
            for (int i = 0; i < nAlts; i++) a[n++] = alts[i] == v ? def : alts[i];
            listener.point(idx, kind, v, a, n);
        }
        if (observer != null) observer.decided(idx, kind, def, v, preemptible && v != def);
        if (v != def) record(idx, kind, v);
        return v;
    }

    static String describe(char kind) {
        return switch (kind) {
            case WARP -> "a warp choice";
            case GROUP -> "a convergence-group choice";
            case LATENCY -> "an async-copy latency";
            default -> "a try_wait early-return choice";
        };
    }

    private void record(long idx, char kind, long v) {
        if (takenCount == takenIndex.length) {
            takenIndex = Arrays.copyOf(takenIndex, takenCount * 2);
            takenKind = Arrays.copyOf(takenKind, takenCount * 2);
            takenValue = Arrays.copyOf(takenValue, takenCount * 2);
        }
        takenIndex[takenCount] = idx;
        takenKind[takenCount] = kind;
        takenValue[takenCount] = v;
        takenCount++;
    }

    private static String list(int[] a, int n) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++) sb.append(i == 0 ? "" : ",").append(a[i]);
        return sb.toString();
    }

    @Override
    public long[] saveState() { return new long[] {decisions, current, streak, divergent}; }

    /**
     * Restores the run state. The plan cursor follows the decision counter, and the decisions taken
     * so far are the plan's entries before it: callers {@link #follow} the whole schedule of the run
     * being resumed first (a replay or a fork from a shared prefix takes exactly those).
     */
    @Override
    public void restoreState(long[] s) {
        if (s.length != 4) throw new IllegalArgumentException("not a schedule policy state");
        decisions = s[0];
        current = (int) s[1];
        streak = (int) s[2];
        divergent = s[3];
        lastWarpPoint = -1;
        cursor = plan.firstAtOrAfter(decisions);
        takenCount = 0;
        for (int i = 0; i < cursor; i++) record(plan.index(i), plan.kind(i), plan.value(i));
    }
}
