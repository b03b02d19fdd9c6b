package io.barrierscope.explore;

import io.barrierscope.exec.ExecutionListener;
import io.barrierscope.exec.Interpreter;
import io.barrierscope.exec.Machine;
import io.barrierscope.exec.Op;
import io.barrierscope.exec.Outcome;
import io.barrierscope.exec.SyncEvent;
import io.barrierscope.launch.LaunchedRun;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Compares two runs from their start: the first warp step where they part (which warp, lanes and
 * instruction each took, and why: another warp chosen, another instruction at the same place, or
 * other lanes), then per CTA barrier, mbarrier and cluster barrier the generations or phases whose
 * arrival orders differ, and the launch buffers' final differences. Both runs are stepped in
 * lock-step, so only the steps since the last match are kept, whatever the runs' length.
 */
public final class RunDiff {
    /** One warp step: which warp, at which pc, with which lanes (group) and which passed the guard (active). */
    public record Step(long step, int warp, int pc, int group, int active, String insn, int line) {}

    /** Where the runs part; {@code a} or {@code b} is null when that run had ended (its outcome then says how). */
    public record Divergence(long step, Step a, Step b, String why, long decisionsA, long decisionsB) {}

    /** One generation (CTA barrier, cluster barrier) or phase (mbarrier) whose arrivals differ. */
    public record SyncDifference(String object, long generation, List<String> a, List<String> b) {}

    /** Elements of one buffer that differ at the end: their count, and the first few as index, A's value, B's value. */
    public record BufferDifference(String buffer, long differing, List<Object[]> first, String note) {}

    /**
     * {@code sync} holds the first {@link ArrivalComparison#KEPT} differing generations found (by
     * object and generation), {@code syncDiffering} counts them all; {@code syncNote} is null, or
     * says why arrivals were not compared to the runs' end (one run too far ahead of the other).
     */
    public record Result(Divergence divergence, String outcomeA, String outcomeB, long stepsA, long stepsB,
                         List<SyncDifference> sync, long syncDiffering, String syncNote, List<BufferDifference> memory) {
        public boolean same() { return divergence == null && syncDiffering == 0 && memory.isEmpty() && outcomeA.equals(outcomeB); }
    }

    /** At most this many differing elements are listed per buffer (all are counted). */
    public static final int FIRST_ELEMENTS = 10;

    private RunDiff() {}

    /** Runs both fresh runs to their end (or {@code maxSteps}) and compares them. */
    public static Result compare(LaunchedRun a, LaunchedRun b, long maxSteps) {
        return compare(a, b, maxSteps, ArrivalComparison.PENDING_CAP);
    }

    /** As above, comparing arrivals until one run gets {@code pendingCap} arrivals ahead (tests use a small one). */
    static Result compare(LaunchedRun a, LaunchedRun b, long maxSteps, int pendingCap) {
        long[] taken = new long[2];
        ArrivalComparison arrivals = new ArrivalComparison(() -> Math.max(taken[0], taken[1]), pendingCap);
        Side sa = new Side(a, arrivals, arrivals.a, taken, 0);
        Side sb = new Side(b, arrivals, arrivals.b, taken, 1);
        Divergence div = null;
        while (div == null && (sa.running(maxSteps) || sb.running(maxSteps))) {
            // Step the one behind (a time jump makes no step); compare once both have taken the step.
            if (sa.steps.size() <= sb.steps.size() && sa.running(maxSteps)) sa.advance();
            else if (sb.running(maxSteps)) sb.advance();
            else sa.advance();
            arrivals.drain();
            while (!sa.steps.isEmpty() && !sb.steps.isEmpty()) {
                Step x = sa.steps.poll();
                Step y = sb.steps.poll();
                if (!same(x, y)) {
                    div = new Divergence(x.step(), x, y, why(sa, sb, x, y), sa.decisions(), sb.decisions());
                    break;
                }
            }
            boolean aEnded = !sa.running(maxSteps) && sa.steps.isEmpty() && !sb.steps.isEmpty();
            boolean bEnded = !sb.running(maxSteps) && sb.steps.isEmpty() && !sa.steps.isEmpty();
            if (div == null && (aEnded || bEnded)) {
                Step x = sa.steps.peek();
                Step y = sb.steps.peek();
                long at = x != null ? x.step() : y.step();
                String why = (x == null ? "A" : "B") + " ended (" + (x == null ? sa.outcome() : sb.outcome()) + ") at step " + at
                        + " where the other went on";
                div = new Divergence(at, x, y, why, sa.decisions(), sb.decisions());
            }
        }
        // After the divergence (or none), both runs go on to their end for the barrier and memory
        // comparison, side by side so that arrivals are compared (and dropped) as they close.
        sa.steps.clear();
        sb.steps.clear();
        while (sa.running(maxSteps) || sb.running(maxSteps)) {
            if (sa.running(maxSteps)) sa.skip();
            else sa.finish(maxSteps);
            if (sb.running(maxSteps)) sb.skip();
            else sb.finish(maxSteps);
            arrivals.drain();
        }
        sa.finish(maxSteps);
        sb.finish(maxSteps);
        sa.scheduleMatched("A");
        sb.scheduleMatched("B");
        arrivals.drain();
        if (div == null && !sa.outcome().equals(sb.outcome())) {
            div = new Divergence(Math.min(sa.m.steps, sb.m.steps), null, null, "the runs took the same steps but ended differently: A "
                    + sa.outcome() + ", B " + sb.outcome(), sa.decisions(), sb.decisions());
        }
        return new Result(div, sa.outcome(), sb.outcome(), sa.m.steps, sb.m.steps, arrivals.differences(), arrivals.differing(),
                arrivals.note(), compareMemory(a.buffers(), b.buffers()));
    }

    private static boolean same(Step x, Step y) {
        return x.warp() == y.warp() && x.group() == y.group() && x.active() == y.active() && x.line() == y.line()
                && Objects.equals(x.insn(), y.insn());
    }

    private static String why(Side sa, Side sb, Step x, Step y) {
        String d = firstDifferentDecision(sa, sb);
        if (x.warp() != y.warp()) {
            return "another warp was scheduled" + d + ": A ran " + sa.warpName(x.warp()) + "'s " + show(x) + ", B ran "
                    + sb.warpName(y.warp()) + "'s " + show(y);
        }
        if (x.line() != y.line() || !Objects.equals(x.insn(), y.insn())) {
            return sa.warpName(x.warp()) + " is at another instruction" + d + ": A " + show(x) + ", B " + show(y)
                    + (x.pc() == y.pc() ? " (the programs differ here)" : " (an earlier branch, a convergence choice or the programs differ)");
        }
        // A convergence-group or try_wait decision parts the runs at the same warp: its decision is named here too.
        return sa.warpName(x.warp()) + " ran " + show(x) + " with other lanes" + d + ": A group 0x" + Integer.toHexString(x.group()) + " active 0x"
                + Integer.toHexString(x.active()) + ", B group 0x" + Integer.toHexString(y.group()) + " active 0x"
                + Integer.toHexString(y.active()) + " (a guard predicate or a convergence choice differs)";
    }

    /**
     * The first decision the two schedule policies took differently so far, as " (scheduling
     * decision N, what each took)", or "" (not both schedule runs, or none). Named by kind: a
     * try_wait forced to return false changes no step's warp or instruction, so the first step
     * that differs comes after it and the decision says why.
     */
    private static String firstDifferentDecision(Side sa, Side sb) {
        if (!(sa.x.policy() instanceof SchedulePolicy pa) || !(sb.x.policy() instanceof SchedulePolicy pb)) return "";
        Schedule a = pa.taken();
        Schedule b = pb.taken();
        int n = Math.min(a.size(), b.size());
        int i = 0;
        while (i < n && a.index(i) == b.index(i) && a.kind(i) == b.kind(i) && a.value(i) == b.value(i)) i++;
        boolean inA = i < a.size();
        boolean inB = i < b.size();
        if (!inA && !inB) return "";
        if (inA && inB && a.index(i) == b.index(i)) {
            return " (scheduling decision " + a.index(i) + ": A took " + entry(a.kind(i), a.value(i)) + ", B " + entry(b.kind(i), b.value(i))
                    + ")";
        }
        boolean aFirst = inA && (!inB || a.index(i) < b.index(i));
        Schedule s = aFirst ? a : b;
        return " (scheduling decision " + s.index(i) + ": " + (aFirst ? "A" : "B") + " took " + entry(s.kind(i), s.value(i)) + ", "
                + (aFirst ? "B" : "A") + " the default)";
    }

    /** One non-default decision in words. */
    private static String entry(char kind, long value) {
        return switch (kind) {
            case SchedulePolicy.WARP -> "warp " + value;
            case SchedulePolicy.GROUP -> "the convergence group at lane " + value;
            case SchedulePolicy.LATENCY -> "a copy latency of " + value + " cycles";
            default -> "a try_wait returning false early";
        };
    }

    private static String show(Step s) { return "`" + s.insn() + "` (line " + s.line() + ", step " + s.step() + ")"; }

    private static List<BufferDifference> compareMemory(Map<String, List<Number>> a, Map<String, List<Number>> b) {
        List<BufferDifference> out = new ArrayList<>();
        TreeMap<String, Boolean> names = new TreeMap<>();
        a.keySet().forEach(k -> names.put(k, true));
        b.keySet().forEach(k -> names.put(k, true));
        for (String n : names.keySet()) {
            List<Number> x = a.get(n);
            List<Number> y = b.get(n);
            if (x == null || y == null) {
                out.add(new BufferDifference(n, -1, List.of(), "only in " + (x == null ? "B" : "A")));
                continue;
            }
            long count = 0;
            List<Object[]> first = new ArrayList<>();
            int len = Math.min(x.size(), y.size());
            for (int i = 0; i < len; i++) {
                if (!x.get(i).equals(y.get(i))) {
                    count++;
                    if (first.size() < FIRST_ELEMENTS) first.add(new Object[] {i, x.get(i), y.get(i)});
                }
            }
            String note = x.size() != y.size() ? "A has " + x.size() + " elements, B " + y.size() : null;
            if (count > 0 || note != null) out.add(new BufferDifference(n, count, first, note));
        }
        return out;
    }

    /** One run being compared: its steps not yet matched, its arrivals recorded into the comparison. */
    private static final class Side implements ExecutionListener {
        final LaunchedRun run;
        final Interpreter x;
        final Machine m;
        final ArrayDeque<Step> steps = new ArrayDeque<>();
        private final ArrivalComparison arrivals;
        private final ArrivalComparison.Side sync;
        private final long[] taken;
        private final int index;
        private boolean ended;
        /** Phase each mbarrier is in (completions seen), by its key. */
        private final Map<Long, Long> mbarPhase = new TreeMap<>();
        /** An instruction's text by pc, made once (a step's text was made with a regex at every step). */
        private final Map<Integer, String> texts = new HashMap<>();
        /** Object names by kind and object, made once (String.format at every arrival was most of the cost). */
        private final Map<Long, String> barKeys = new HashMap<>();
        private final Map<Long, String> mbarKeys = new HashMap<>();
        private final Map<Long, String> clusterKeys = new HashMap<>();

        Side(LaunchedRun run, ArrivalComparison arrivals, ArrivalComparison.Side sync, long[] taken, int index) {
            this.run = run;
            this.x = run.interpreter();
            this.m = run.machine();
            this.arrivals = arrivals;
            this.sync = sync;
            this.taken = taken;
            this.index = index;
            x.addListener(this);
        }

        boolean running(long maxSteps) { return x.outcome() == Outcome.RUNNING && m.steps < maxSteps; }

        void advance() {
            x.step();
            taken[index] = m.steps;
        }

        /** One step past the divergence: its step is not kept. */
        void skip() {
            advance();
            steps.clear();
        }

        /** Ends the run (as step-limit when its budget is spent) and closes its open generations. */
        void finish(long maxSteps) {
            if (ended) return;
            steps.clear();
            if (x.outcome() == Outcome.RUNNING) x.run(maxSteps); // ends as step-limit
            x.removeListener(this);
            sync.end();
            ended = true;
        }

        /**
         * A schedule with decisions its run never reached does not match the launch: refused, as
         * `run --schedule` refuses it, rather than compared as if it had been followed.
         */
        void scheduleMatched(String which) {
            if (x.policy() instanceof SchedulePolicy p && p.unconsumed() > 0 && x.outcome() != Outcome.STEP_LIMIT) {
                throw new io.barrierscope.launch.BadInputException("error: the schedule of run " + which + " does not match its launch: the run ended ("
                        + outcome() + ") at step " + m.steps + " with " + p.unconsumed() + " of its decisions not reached");
            }
        }

        String outcome() { return x.outcome().jsonName(); }

        /** Decisions taken so far under a schedule policy; -1 under another policy. */
        long decisions() { return x.policy() instanceof SchedulePolicy p ? p.decisions() : -1; }

        String warpName(int w) { return m.ctas > 1 ? "CTA " + m.ctaOfWarp(w) + " warp " + m.warpInCta(w) : "warp " + w; }

        private String thread(int slot) {
            if (slot < 0) return "a copy";
            return warpName(slot >> 5) + " lane " + (slot & 31);
        }

        @Override
        public void warpStep(long step, int warp, int pc, int group, int active) {
            Op op = x.op(pc);
            String text = texts.computeIfAbsent(pc, k -> op == null || op.insn == null ? "?" : op.insn.text().strip().replaceAll("\\s+", " "));
            int line = op == null || op.insn == null ? -1 : op.insn.pos().line();
            steps.add(new Step(step, warp, pc, group, active, text, line));
        }

        @Override
        public void syncEvent(long step, SyncEvent kind, int slot, long object, long a, long b) {
            if (!arrivals.recording() && kind != SyncEvent.MBAR_INIT && kind != SyncEvent.MBAR_PHASE_COMPLETE) return;
            int cta = (int) (object >>> 32);
            int low = (int) object;
            switch (kind) {
                case BAR_ARRIVE -> add(barKeys.computeIfAbsent(object, k -> key(0, cta, low, "CTA " + cta + " barrier " + low)), a,
                        warpName(slot >> 5));
                case CLUSTER_ARRIVE -> addLane(clusterKeys.computeIfAbsent(object, k -> key(2, (int) object, 0, "cluster barrier of CTA " + object)),
                        a, slot);
                case MBAR_INIT -> mbarPhase.put(object, 0L);
                case MBAR_ARRIVE -> {
                    if (slot >= 0 && a == 1) addLane(mbarName(object), mbarPhase.getOrDefault(object, 0L), slot);
                    else add(mbarName(object), mbarPhase.getOrDefault(object, 0L), thread(slot) + " x" + a);
                }
                case MBAR_COMPLETE_TX -> add(mbarName(object), mbarPhase.getOrDefault(object, 0L), "complete-tx " + a + " bytes");
                case MBAR_PHASE_COMPLETE -> mbarPhase.put(object, a + 1);
                default -> { }
            }
        }

        private String mbarName(long object) {
            return mbarKeys.computeIfAbsent(object, k -> {
                int cta = (int) (object >>> 32);
                int offset = (int) object;
                return key(1, cta, offset, "mbarrier at shared 0x" + Integer.toHexString(offset) + " of CTA " + cta);
            });
        }

        /** A key that sorts by kind, CTA and id or offset (numerically), followed by the object's name after '|'. */
        private static String key(int kind, int cta, int low, String name) {
            return String.format("%d %010d %010d|%s", kind, cta, low & 0xFFFFFFFFL, name);
        }

        private void add(String object, long generation, String who) {
            ArrivalComparison.Segment s = sync.at(object, generation);
            s.arrivals.add(who);
            s.lastWarp = -1;
            sync.added();
        }

        /** One thread's arrival; consecutive arrivals of one warp's lanes become one entry ("warp 0 lanes 0-31"). */
        private void addLane(String object, long generation, int slot) {
            if (slot < 0) {
                add(object, generation, "a copy");
                return;
            }
            ArrivalComparison.Segment s = sync.at(object, generation);
            int w = slot >> 5;
            if (s.lastWarp == w && (s.lastLanes & (1 << (slot & 31))) == 0) {
                s.lastLanes |= 1 << (slot & 31);
                s.arrivals.set(s.arrivals.size() - 1, warpName(w) + " " + lanes(s.lastLanes));
                return;
            }
            s.arrivals.add(warpName(w) + " " + lanes(1 << (slot & 31)));
            s.lastWarp = w;
            s.lastLanes = 1 << (slot & 31);
            sync.added();
        }

        /** A lane mask as ranges: "lane 3", "lanes 0-31", "lanes 0-3,8". */
        private static String lanes(int mask) {
            StringBuilder sb = new StringBuilder();
            int n = 0;
            for (int l = 0; l < 32; l++) {
                if ((mask & (1 << l)) == 0) continue;
                int e = l;
                while (e + 1 < 32 && (mask & (1 << (e + 1))) != 0) e++;
                if (sb.length() > 0) sb.append(',');
                sb.append(l == e ? String.valueOf(l) : l + "-" + e);
                n += e - l + 1;
                l = e;
            }
            return (n == 1 ? "lane " : "lanes ") + sb;
        }
    }
}
