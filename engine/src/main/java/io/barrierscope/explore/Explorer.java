package io.barrierscope.explore;

import io.barrierscope.check.Deadlock;
import io.barrierscope.check.DeadlockExplainer;
import io.barrierscope.check.Diagnostic;
import io.barrierscope.exec.Interpreter;
import io.barrierscope.exec.Machine;
import io.barrierscope.exec.Outcome;
import io.barrierscope.exec.SplitMix64;
import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.ptx.SourcePos;
import io.barrierscope.trace.Checkpoint;
import io.barrierscope.trace.StateHash;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.LongSupplier;

/**
 * Searches schedules of one launch for deadlocks, diagnostics (UB, faults, races) and step-limit
 * hangs. First systematically, by iterative deepening over the number of non-default decisions
 * (preemption / delay bound 1, 2, 3, ...), forking every schedule from a checkpoint of its
 * parent's run instead of re-running the shared prefix; then seeded random deviations for the
 * rest of the budget. Reductions: decision points only before visible instructions (see
 * {@link SchedulePolicy}); of symmetric warps at a decision point only one is an alternative
 * ({@link WarpSymmetry}, unless {@link Options#symmetry} is off); a forked schedule whose state
 * after the fork equals one already explored is pruned (its future under the defaults was
 * explored), which also merges warps whose order does not matter. The time limit is read only
 * between schedules, so the same options and seed give the same findings unless the clock cut
 * the search.
 */
public final class Explorer {
    /**
     * Budgets and knobs; {@code timeLimitMillis} 0 means none. {@code symmetry} off explores every
     * symmetric warp too (exhaustive within the bound, for a user who distrusts the reduction).
     */
    public record Options(long schedules, long timeLimitMillis, long seed, int maxPreemptions, long maxSteps, boolean symmetry) {
        /** With the symmetric-warp reduction on (the default). */
        public Options(long schedules, long timeLimitMillis, long seed, int maxPreemptions, long maxSteps) {
            this(schedules, timeLimitMillis, seed, maxPreemptions, maxSteps, true);
        }
    }

    public record Result(Coverage coverage, List<Finding> findings) {}

    /** Told after each schedule counted, on the exploring thread (the window's progress bar). */
    public interface Progress {
        void explored(long schedules, int findings);
    }

    /** Steps between the checkpoints of a run whose alternatives are enumerated. */
    static final int CHECKPOINT_INTERVAL = 256;
    /** Decision boundaries after a fork at which the state is compared with explored ones. */
    static final int HASHES_AFTER_FORK = 3;
    /** Share of the budgets the systematic phase may use before random search takes over. */
    static final double SYSTEMATIC_SHARE = 0.7;
    private static final int[] RANDOM_ODDS = {4, 16, 64, 8, 32, 256};

    private final LaunchedRun run;
    private final Interpreter x;
    private final Machine m;
    private final SchedulePolicy policy;
    private final Checkpoint start;
    private final LongSupplier clock;

    private Options opt;
    private long t0;
    private final Map<String, Finding> findings = new LinkedHashMap<>();
    private final Set<String> outcomes = new HashSet<>();
    private final Set<Long> visited = new HashSet<>();
    /** Clock reading (since the start) when each cause was first found: for benchmarks, never part of a result. */
    private final Map<String, Long> foundAfter = new LinkedHashMap<>();
    private long schedules;
    private long systematic;
    private long random;
    private long points;
    private long pruned;
    private long skippedBySymmetry;
    private WarpSymmetry symmetry;
    /** The alternatives of a decision before the reduction (scratch, reused). */
    private long[] offeredScratch = new long[64];
    private boolean systematicOnly;
    private long warpSteps;
    private String stoppedBy;
    private volatile boolean cancelled;
    private Progress progress;
    /** Tests: told each schedule counted (its string), to check what was and was not explored. */
    java.util.function.Consumer<Schedule> scheduleListener;

    /** Alternatives of one run, and the checkpoints to fork them from. */
    private static final class Frame {
        final Schedule plan;
        /** Alternatives are enumerated only after this decision (the plan's last entry), so no schedule twice. */
        final long after;
        final List<Long> cpAt = new ArrayList<>();
        final List<Checkpoint> cps = new ArrayList<>();
        final List<long[]> alternatives = new ArrayList<>();
        /** Alternatives the symmetric-warp reduction dropped (put back if the run ends in a race). */
        final List<long[]> skipped = new ArrayList<>();
        /** Alternatives the policy offered, before the symmetric-warp reduction. */
        long offered;

        Frame(Schedule plan, long after) {
            this.plan = plan;
            this.after = after;
        }
    }

    /**
     * Explores {@code run}, which must be a fresh run (step 0) scheduled by a {@link SchedulePolicy}.
     * {@code clock} gives milliseconds and is only read between schedules.
     */
    public Explorer(LaunchedRun run, LongSupplier clock) {
        if (!(run.interpreter().policy() instanceof SchedulePolicy p)) throw new IllegalArgumentException("needs a SchedulePolicy run");
        if (run.machine().steps != 0) throw new IllegalArgumentException("needs a fresh run");
        this.run = run;
        this.x = run.interpreter();
        this.m = run.machine();
        this.policy = p;
        this.clock = clock;
        this.start = Checkpoint.take(x);
    }

    /** Asks a running {@link #explore} (from any thread) to stop before its next schedule; its coverage says {@code cancelled}. */
    public void cancel() { cancelled = true; }

    /** Listens to the schedules counted by the next {@link #explore} (null: nobody). */
    public void onProgress(Progress p) { progress = p; }

    /**
     * Measurements only (benchmarks, tests): the systematic phase may use the whole budget and
     * no random phase follows, so a search's schedule count is what exhausting the bound took.
     */
    public void systematicOnly(boolean on) { systematicOnly = on; }

    public Result explore(Options o) {
        opt = o;
        t0 = clock.getAsLong();
        symmetry = o.symmetry() ? new WarpSymmetry(m.program) : null;
        int boundDone = 0;
        boolean exhausted = false;
        for (int bound = 1; bound <= o.maxPreemptions(); bound++) {
            Frame base = new Frame(Schedule.EMPTY, -1);
            execute(Schedule.EMPTY, null, -1, base);
            keepSymmetricIfRaced(base);
            if (bound == 1) {
                points = base.offered;
                counted(true);
            }
            if (base.alternatives.isEmpty()) {
                exhausted = true;
                boundDone = o.maxPreemptions();
                break;
            }
            long before = schedules;
            if (!expand(base, 1, bound)) break;
            boundDone = bound;
            if (schedules == before) { // nothing new at this depth: deeper ones hold nothing either
                exhausted = true;
                boundDone = o.maxPreemptions();
                break;
            }
        }
        if (!systematicOnly && (!exhausted || boundDone < o.maxPreemptions())) randomPhase();
        if (stoppedBy == null) stoppedBy = Coverage.EXHAUSTED;
        Coverage c = new Coverage(schedules, systematic, random, outcomes.size(), points, pruned, boundDone, stoppedBy, warpSteps,
                skippedBySymmetry);
        return new Result(c, List.copyOf(findings.values()));
    }

    /** Runs every child of {@code f} with one more forced decision; false once a budget is spent. */
    private boolean expand(Frame f, int depth, int bound) {
        for (long[] a : f.alternatives) {
            if (out(systematicOnly ? 1.0 : SYSTEMATIC_SHARE)) return false;
            Schedule child = f.plan.with(a[0], (char) a[1], a[2]);
            if (depth == bound) {
                if (execute(child, f, a[0], null)) counted(true);
            } else {
                Frame c = new Frame(child, a[0]);
                execute(child, f, a[0], c);
                keepSymmetricIfRaced(c);
                if (!expand(c, depth + 1, bound)) return false;
            }
        }
        return true;
    }

    private void randomPhase() {
        for (long i = 0; ; i++) {
            if (out(1.0)) return;
            policy.randomize(new SplitMix64(opt.seed() * 0x9E3779B97F4A7C15L + i), RANDOM_ODDS[(int) (i % RANDOM_ODDS.length)]);
            execute(Schedule.EMPTY, null, -1, null);
            policy.randomize(null, 0);
            counted(false);
        }
    }

    /**
     * A run that ends in a race keeps every alternative it offered: which of two symmetric warps
     * goes first decides which of their index-dependent words meet which writes, and a run stops at
     * its first race, so a mirrored schedule can meet a race with other source lines.
     */
    private void keepSymmetricIfRaced(Frame f) {
        if (f.skipped.isEmpty()) return;
        boolean raced = false;
        for (Diagnostic d : x.diagnostics()) raced |= d.code() == io.barrierscope.check.DiagnosticCode.RACE;
        if (!raced) return;
        skippedBySymmetry -= f.skipped.size();
        f.alternatives.addAll(f.skipped);
        f.skipped.clear();
        f.alternatives.sort(java.util.Comparator.comparingLong(a -> a[0])); // stable: decision order, kept ones first
    }

    /** Whether a budget share is spent (and why, once a full budget is). */
    private boolean out(double share) {
        if (cancelled) {
            stoppedBy = Coverage.CANCELLED;
            return true;
        }
        if (schedules >= (long) Math.ceil(opt.schedules() * share)) {
            if (share >= 1.0) stoppedBy = Coverage.SCHEDULE_BUDGET;
            return true;
        }
        if (opt.timeLimitMillis() > 0 && clock.getAsLong() - t0 >= opt.timeLimitMillis() * share) {
            if (share >= 1.0) stoppedBy = Coverage.TIME_LIMIT;
            return true;
        }
        return false;
    }

    /**
     * Runs {@code plan} to its end, forking from the last checkpoint of {@code parent} at or before
     * decision {@code fork} (from the start without a parent). With {@code record}, collects its
     * alternatives and checkpoints; without, stops early (false) when the run reaches an explored state.
     */
    private boolean execute(Schedule plan, Frame parent, long fork, Frame record) {
        Checkpoint cp = start;
        if (parent != null) {
            int i = parent.cpAt.size() - 1;
            while (i >= 0 && parent.cpAt.get(i) > fork) i--;
            if (i >= 0) cp = parent.cps.get(i);
            if (record != null) {
                for (int k = 0; k <= i; k++) {
                    record.cpAt.add(parent.cpAt.get(k));
                    record.cps.add(parent.cps.get(k));
                }
            }
        }
        policy.follow(plan);
        cp.restoreInto(x);
        if (record != null) {
            policy.listen((idx, kind, chosen, alts, n) -> {
                record.offered += n;
                int keep = n;
                if (kind == SchedulePolicy.WARP && symmetry != null) {
                    long[] offered = offeredScratch.length >= n ? offeredScratch : (offeredScratch = new long[n]);
                    System.arraycopy(alts, 0, offered, 0, n);
                    keep = symmetry.reduce(m, (int) chosen, alts, n);
                    skippedBySymmetry += n - keep;
                    for (int o = 0; o < n; o++) {
                        long v = offered[o];
                        boolean kept = false;
                        for (int k = 0; k < keep && !kept; k++) kept = alts[k] == v;
                        if (!kept) record.skipped.add(new long[] {idx, kind, v});
                    }
                }
                for (int k = 0; k < keep; k++) record.alternatives.add(new long[] {idx, kind, alts[k]});
            }, record.after + 1);
        } else {
            policy.listen(null, 0);
        }
        long from = m.steps;
        long lastCp = m.steps;
        int hashes = 0;
        boolean complete = true;
        while (x.outcome() == Outcome.RUNNING) {
            if (m.steps >= opt.maxSteps()) {
                x.run(opt.maxSteps()); // ends the run as step-limit
                break;
            }
            long before = policy.decisions();
            x.step();
            long d = policy.decisions();
            if (d == before || x.outcome() != Outcome.RUNNING) continue;
            if (record != null) {
                if (d > record.after + 1) visited.add(StateHash.of(x));
                if (m.steps - lastCp >= CHECKPOINT_INTERVAL) {
                    record.cpAt.add(d);
                    record.cps.add(Checkpoint.take(x));
                    lastCp = m.steps;
                }
            } else if (fork >= 0 && hashes < HASHES_AFTER_FORK && d > fork) {
                hashes++;
                if (!visited.add(StateHash.of(x))) {
                    pruned++;
                    complete = false;
                    break;
                }
            }
        }
        policy.listen(null, 0);
        warpSteps += m.steps - from;
        return complete;
    }

    /** Counts the schedule just run and files its outcome and any finding. */
    private void counted(boolean systematicPhase) {
        schedules++;
        if (systematicPhase) systematic++;
        else random++;
        Outcome o = x.outcome();
        StringBuilder key = new StringBuilder(o.jsonName());
        for (Diagnostic d : x.diagnostics()) {
            List<Integer> lines = d.ptxLocations().stream().map(SourcePos::line).toList();
            // The same source lines in either order are one cause; nvcc often duplicates a line's code
            // for different warps' paths, so CUDA lines (when every location has one) merge those copies.
            boolean cuda = !d.cudaLocations().isEmpty() && d.cudaLocations().size() == lines.size();
            String cause = d.code().code() + "@" + (cuda
                    ? new TreeSet<>(d.cudaLocations().stream().map(l -> l.file() + ":" + l.line()).toList())
                    : new TreeSet<>(lines));
            key.append(' ').append(cause);
            file(Finding.DIAGNOSTIC, d.code().code(), cause, d.message(), d.step(), lines, o);
        }
        if (o == Outcome.DEADLOCK) {
            Deadlock dl = DeadlockExplainer.explain(x);
            TreeSet<Integer> lines = new TreeSet<>();
            for (Deadlock.Wait w : dl.waits()) lines.add(w.ptxLine());
            String cause = "deadlock@" + lines;
            key.append(' ').append(cause);
            Deadlock.Wait w = dl.waits().isEmpty() ? null : dl.waits().get(0);
            String msg = w == null ? "no thread can make progress"
                    : w.threads() + " wait on " + w.on() + " at " + w.location() + "; it needs " + w.needs();
            file(Finding.DEADLOCK, "deadlock", cause, msg, m.steps, List.copyOf(lines), o);
        } else if (o == Outcome.STEP_LIMIT) {
            TreeSet<Integer> lines = new TreeSet<>();
            for (int s = 0; s < m.slots; s++) {
                if ((m.liveMask[s >> 5] & (1 << (s & 31))) != 0) lines.add(x.op(m.pc[s]).insn.pos().line());
            }
            String cause = "step-limit@" + lines;
            key.append(' ').append(cause);
            file(Finding.STEP_LIMIT, "step-limit", cause, "the step limit of " + opt.maxSteps()
                    + " warp steps was reached with live threads at PTX lines " + lines, m.steps, List.copyOf(lines), o);
        } else if (o == Outcome.COMPLETED) {
            key.append(' ').append(run.buffersHash());
        }
        outcomes.add(key.toString());
        if (scheduleListener != null) scheduleListener.accept(policy.taken());
        if (progress != null) progress.explored(schedules, findings.size());
    }

    private void file(String kind, String code, String cause, String message, long step, List<Integer> lines, Outcome o) {
        if (findings.containsKey(cause)) return;
        foundAfter.put(cause, clock.getAsLong() - t0);
        findings.put(cause, new Finding(kind, code, cause, message, step, policy.taken(), schedules, lines, o.jsonName()));
    }

    /** Clock units from the start of {@link #explore} until {@code f} was first found (wall time: benchmarks only). */
    public long foundAfter(Finding f) { return foundAfter.getOrDefault(f.cause(), -1L); }

    /** Replays {@code s} from the start on the explored run; afterwards the run is in its final state. */
    public Outcome replay(Schedule s) {
        policy.follow(s);
        start.restoreInto(x);
        return run.runToEnd(opt != null ? opt.maxSteps() : run.maxSteps());
    }
}
