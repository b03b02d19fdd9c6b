package io.barrierscope.explore;

import static io.barrierscope.explore.ExploreTuning.*;

import io.barrierscope.exec.Interpreter;
import io.barrierscope.exec.Machine;
import io.barrierscope.exec.Outcome;
import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.launch.MemoryEstimate;
import io.barrierscope.trace.Checkpoint;
import java.util.List;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * Searches schedules of one launch for deadlocks, diagnostics (UB, faults, races) and step-limit
 * hangs. First systematically, by iterative deepening over the number of non-default decisions
 * (deviation bound 1, 2, 3, ...: non-default decisions of any kind), forking every schedule from a checkpoint of its
 * parent's run instead of re-running the shared prefix; then seeded random deviations for the
 * rest of the budget. Reductions: decision points only before visible instructions (see
 * {@link SchedulePolicy}); of symmetric warps at a decision point only one is an alternative
 * ({@link WarpSymmetry}, unless {@link Options#symmetry} is off); a forked schedule whose state
 * after the fork equals one already explored is pruned (its future under the defaults was
 * explored), which also merges warps whose order does not matter; the partial-order reduction forks
 * a warp decision only where a race of an explored run asks for it ({@link SourceSetSearch}, source
 * sets over sleep sets; {@link SleepSetSearch} without them). The time limit and a cancel are
 * checked between schedules and every {@link #LIMIT_CHECK_STEPS} steps inside one, so the same
 * options and seed give the same findings unless the clock or a cancel cut the search. With
 * {@link #jobs} the leaves and random schedules run on several machines and are filed in order
 * (the same result), and every finding is minimised ({@link Minimizer}) before it is returned.
 */
public final class Explorer {
    /**
     * Budgets and knobs; {@code timeLimitMillis} 0 means none. {@code symmetry} off explores every
     * symmetric warp too (exhaustive within the bound, for a user who distrusts the reduction).
     */
    public record Options(long schedules, long timeLimitMillis, long seed, int maxDeviations, long maxSteps, boolean symmetry,
                          long minimizeMillis) {
        /** With the symmetric-warp reduction on (the default). */
        public Options(long schedules, long timeLimitMillis, long seed, int maxDeviations, long maxSteps) {
            this(schedules, timeLimitMillis, seed, maxDeviations, maxSteps, true);
        }

        /** Findings minimised within {@link #DEFAULT_MINIMIZE_MILLIS}. */
        public Options(long schedules, long timeLimitMillis, long seed, int maxDeviations, long maxSteps, boolean symmetry) {
            this(schedules, timeLimitMillis, seed, maxDeviations, maxSteps, symmetry, DEFAULT_MINIMIZE_MILLIS);
        }

        /** Whether findings are minimised ({@code minimizeMillis} >= 0; 0: bounded by replays only). */
        public boolean minimize() { return minimizeMillis >= 0; }

        /** Seconds as milliseconds, a positive fraction of one rounded up (never to 0, which means none). */
        public static long millis(double seconds) { return (long) Math.ceil(seconds * 1000); }

        /** Whether a time in seconds is one a search accepts: 0..1e9 (NaN and infinities are not). */
        public static boolean validSeconds(double seconds) { return seconds >= 0 && seconds <= 1e9; }
    }

    /** Default time for minimising all findings of a search. */
    public static final long DEFAULT_MINIMIZE_MILLIS = 10_000;

    public record Result(Coverage coverage, List<Finding> findings) {}

    /** Told after each schedule counted, on the exploring thread (the window's progress bar). */
    public interface Progress {
        void explored(long schedules, int findings);

        /**
         * During minimisation, after each candidate replay: finding {@code finding} (from 0) of
         * {@code findings}, {@code replays} of its at most {@code budget} replays done.
         */
        default void minimizing(int finding, int findings, int replays, int budget) {}
    }

    /**
     * Checkpoints an enumerated run keeps of its own at most (those before its fork are its
     * parent's): past it, every other one is dropped and the interval doubles, so the memory a
     * long run's checkpoints take is bounded and counted before explore starts: the launch's
     * validation fits it to the heap (launch/MemoryEstimate), {@value MemoryEstimate#EXPLORE_CHECKPOINTS_PER_RUN} when it fits.
     */
    final int checkpointsPerRun;
    /**
     * The most a fork checkpoint may hold in copies of mbarriers and operations in flight, as the
     * launch's memory counted them (docs/reliability.md): one holding more is not kept, so explore
     * re-runs from an earlier one instead of passing what was counted.
     */
    long checkpointSyncBytes;
    /** Fork checkpoints not kept for holding more than {@link #checkpointSyncBytes}. */
    long checkpointsNotKept;

    private final LaunchedRun run;
    private final Interpreter x;
    private final Machine m;
    private final SchedulePolicy policy;
    private final Checkpoint start;
    private final LongSupplier clock;

    private Options opt;
    private long t0;
    private final FindingLog findings = new FindingLog();
    /** Explored state hashes: filled by this thread only, in filing order; read by the runners' leaves (ExhaustionPass swaps it). */
    Set<Long> visited = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private long schedules;
    private long systematic;
    private long random;
    private long points;
    private long pruned;
    long skippedBySymmetry;
    long skippedByPartialOrder;
    /** Leaves cut by the sleep sets (each would have forks of its own one bound deeper). */
    long cutLeaves;
    /** Of those, the ones whose forks one bound deeper may reach new classes (all but bounded cuts at the fork's own step). */
    long cutHiding;
    long blockedInner; // enumerating runs cut where a sleeping warp stepped
    private WarpSymmetry symmetry;
    /** The partial-order reduction the search uses (the setters below). */
    final Reductions reductions = new Reductions();
    private boolean exhaustedByPass;
    /** The systematic share in force, and the schedules and clock units it does not count (what ExhaustionPass took). */
    double share = SYSTEMATIC_SHARE;
    long shareFromSchedules;
    long shareFromMillis;
    /** The source-set search of the current {@link #explore}, or null (off, or more warps than it handles). */
    private SourceSetSearch dpor;
    private boolean systematicOnly;
    private long warpSteps;
    private String stoppedBy;
    private volatile boolean cancelled;
    /** Clock reading past which a schedule stops mid-run (Long.MAX_VALUE: none). */
    private volatile long deadline = Long.MAX_VALUE;
    /** Set when a limit or cancel stopped the last schedule before its end (it is not counted). */
    private boolean aborted;
    /** State bytes (of the start checkpoint): what one state hash reads. */
    private final long stateBytes;
    /** Hash budget (tests set smaller thresholds): states up to fullHashBytes are hashed at every decision. */
    long fullHashBytes = FULL_HASH_BYTES;
    /** Tests: the most checkpoints an enumerated run held of its own, and how often a run thinned them. */
    int mostOwnCheckpoints;
    int thinnings;
    /** The runners: the first on this launch, the others on copies, one per job. */
    private final JobRunners runners = new JobRunners();
    private Progress progress;
    /** Tests: told each schedule counted (its string), to check what was and was not explored. */
    java.util.function.Consumer<Schedule> scheduleListener;

    /**
     * Explores {@code run}, which must be a fresh run (step 0) scheduled by a {@link SchedulePolicy}.
     * {@code clock} gives milliseconds and is only read between schedules.
     */
    public Explorer(LaunchedRun run, LongSupplier clock) {
        if (!(run.interpreter().policy() instanceof SchedulePolicy p)) throw new IllegalArgumentException("needs a SchedulePolicy run");
        if (run.machine().steps != 0) throw new IllegalArgumentException("needs a fresh run");
        this.run = run;
        this.checkpointsPerRun = run.exploreCheckpointsPerRun();
        this.checkpointSyncBytes = run.forkCheckpointSyncBytes();
        this.x = run.interpreter();
        this.m = run.machine();
        this.policy = p;
        this.clock = clock;
        ScheduleRunner main = new ScheduleRunner(run);
        runners.add(main);
        this.start = main.start;
        this.stateBytes = main.stateBytes;
    }

    /**
     * Runs schedules on {@code jobs} machines at once: this launch's and {@code jobs - 1} copies
     * opened by {@code open} (each must be a fresh run of the same launch under a
     * {@link SchedulePolicy}). The findings, their order and schedules, and every coverage number
     * are those of one job (unless the clock or a cancel cuts the search).
     */
    public void jobs(int jobs, java.util.function.Supplier<LaunchedRun> open) {
        if (jobs < 1) throw new IllegalArgumentException("jobs must be at least 1");
        runners.keepFirst();
        for (int j = 1; j < jobs; j++) {
            LaunchedRun copy = open.get();
            if (copy.machine().steps != 0) throw new IllegalArgumentException("needs a fresh run");
            runners.add(new ScheduleRunner(copy));
        }
    }

    /** Asks a running {@link #explore} (from any thread) to stop before its next schedule; its coverage says {@code cancelled}. */
    public void cancel() { cancelled = true; }

    /** Told each schedule counted, in order, with its schedule (tests: what was explored); null: nobody. */
    public void onSchedule(java.util.function.Consumer<Schedule> l) { scheduleListener = l; }

    /** Listens to the schedules counted by the next {@link #explore} (null: nobody). */
    public void onProgress(Progress p) { progress = p; }

    /**
     * Measurements only (benchmarks, tests): the systematic phase may use the whole budget and
     * no random phase follows, so a search's schedule count is what exhausting the bound took.
     */
    public void systematicOnly(boolean on) { systematicOnly = on; }

    /**
     * Turns the partial-order reduction (sleep sets over the steps' footprints, docs/explore.md)
     * on (the default) or off ({@code --no-por}).
     */
    public void partialOrder(boolean on) { reductions.partialOrder = on; }

    /**
     * With the partial-order reduction on: forks warp decisions only where a race asks for one
     * (source sets, the default) or at every non-sleeping alternative (sleep sets alone: off).
     */
    public void sourceSets(boolean on) { reductions.sourceSets = on; }

    /**
     * With the partial-order reduction on: the rule sound within the deviation bound
     * ({@code --bounded-por}, {@link BoundedPartialOrder}) instead of source sets and sleep sets.
     */
    public void boundedPartialOrder(boolean on) { reductions.bounded = on; }

    /**
     * With {@link #boundedPartialOrder}: sleep sets sound within the deviation bound
     * ({@link SleepSet#bounded}; the default) instead of the rule that only skips forks into an
     * independent remainder ({@link BoundedPartialOrder}, false).
     */
    public void boundedSleepSets(boolean on) { reductions.boundedSleepSets = on; }

    /**
     * With bounded sleep sets: makes the forks that reverse a dependence of their run first
     * ({@link RaceFirst}; the default) or in decision order (off). Only the order changes.
     */
    public void raceFirst(boolean on) { reductions.raceFirst = on; }

    /**
     * With bounded sleep sets: after bound 1, an unbounded source-set search that may prove "all interleavings"
     * ({@link ExhaustionPass}; the command line's default). Off (the engine's default): the bounded search alone.
     */
    public void exhaustionPass(boolean on) { reductions.exhaustionPass = on; }

    /** Whether the last search's exhaustion ({@link Coverage#allSchedules}) was proved by the {@link ExhaustionPass}, not its own bounds. */
    public boolean exhaustedByPass() { return exhaustedByPass; }

    /** Runs cut where a sleeping warp stepped (within skippedByPartialOrder): what wakeup trees would avoid (docs/explore.md). */
    public long blockedRuns() { return cutLeaves + blockedInner; }

    /** Whether source sets were used: asked for, and the launch's warps fit the race analysis' memory (else sleep sets alone). */
    public boolean usedSourceSets() { return dpor != null && !dpor.bounded; }

    public Result explore(Options o) {
        runners.start();
        try {
            return search(o);
        } finally {
            runners.stop();
        }
    }

    /** Where the last {@link #explore}'s time went, per thread (benchmarks; measured, never used by the search). */
    public JobStats jobStats() { return runners.stats(); }

    /** Tests: state hashes taken by every runner so far. */
    long hashes() {
        long n = 0;
        for (ScheduleRunner r : runners) n += r.hashes;
        return n;
    }

    private Result search(Options o) {
        opt = o;
        t0 = clock.getAsLong();
        long end = t0 + o.timeLimitMillis(); // a limit past the clock's range is none (it wrapped to a deadline passed)
        deadline = o.timeLimitMillis() > 0 && end > t0 ? end : Long.MAX_VALUE;
        symmetry = o.symmetry() ? new WarpSymmetry(m.program) : null;
        for (ScheduleRunner r : runners) r.boundedSleep = boundedSleep();
        dpor = reductions.sourceSetSearch(this, m.warps);
        share = systematicOnly ? 1.0 : SYSTEMATIC_SHARE;
        shareFromSchedules = 0;
        shareFromMillis = 0;
        Deepening deep = new Deepening(this, dpor, true);
        boolean exhausted = false;
        exhaustedByPass = false;
        for (int bound = 1; bound <= o.maxDeviations() && deep.bound(bound); bound++) {
            // Source sets exhaust small kernels the bounded sleep sets do not (docs/explore.md, "Exhausting small kernels").
            if (bound == 1 && reductions.exhaustionPass && boundedSleep() && (exhausted = exhaustedByPass = ExhaustionPass.run(this, m.warps))) break;
            if (aborted) break;
        }
        exhausted |= deep.exhausted;
        int boundDone = exhausted ? o.maxDeviations() : deep.boundDone;
        if (!aborted && !systematicOnly && (!exhausted || boundDone < o.maxDeviations())) RandomSchedules.run(this, o.seed(), o.maxSteps());
        if (stoppedBy == null) stoppedBy = Coverage.EXHAUSTED;
        // Stopped before the default schedule was counted: not even bound 0 is complete (it said "bound 0 complete").
        if (schedules == 0) boundDone = -1;
        Coverage c = new Coverage(schedules, systematic, random, findings.outcomes(), points, pruned, boundDone, stoppedBy, warpSteps,
                skippedBySymmetry, exhausted, skippedByPartialOrder, reductions.boundedRule());
        List<Finding> out = findings.list();
        if (o.minimize()) {
            new FindingsMinimization(minimizer(), clock, () -> cancelled, progress, d -> deadline = d).minimizeAll(out, o.minimizeMillis());
            deadline = Long.MAX_VALUE;
            aborted = false;
        }
        return new Result(c, List.copyOf(out));
    }

    /** A minimiser replaying on this launch's machine, explaining with runner 0's footprints. */
    private Minimizer minimizer() {
        return new Minimizer(x, policy, s -> execute(s, null, -1, null), opt.maxSteps()).explainWith(runners.get(0).footprints);
    }

    /** What {@link #fileLeaf} did with a leaf. */
    static final int FILED_ABORTED = -1;
    static final int FILED_COUNTED = 0;
    static final int FILED_PRUNED = 1;
    static final int FILED_REDUNDANT = 2;

    /** Files one leaf's run as {@link #execute} would have; {@link #FILED_ABORTED} when a limit cut it (the search stops). */
    int fileLeaf(ScheduleRunner.Leaf r, long fromStep, boolean systematicPhase) {
        for (int h = 0; h < r.hashCount(); h++) {
            if (!visited.add(r.hashes()[h])) {
                pruned++;
                warpSteps += r.stepsAt()[h] - fromStep;
                return FILED_PRUNED;
            }
        }
        warpSteps += r.endSteps() - fromStep;
        if (r.aborted()) {
            cutByLimit();
            return FILED_ABORTED;
        }
        if (r.stoppedEarly()) throw new IllegalStateException("a leaf stopped at a known state was not pruned");
        if (r.redundant()) {
            skippedByPartialOrder++;
            cutLeaves++;
            if (!r.cutAtFork()) cutHiding++;
            return FILED_REDUNDANT;
        }
        counted(systematicPhase, r.summary());
        return FILED_COUNTED;
    }

    // For SourceSetSearch, which walks the same tree with the same runs, counts and limits.
    boolean sleepSets() { return reductions.sleepSets(); }
    boolean boundedSleep() { return reductions.boundedSleep(); }
    boolean raceFirst() { return reductions.raceFirstOrder(); }
    double systematicShare() { return share; }
    long schedules() { return schedules; }
    long elapsed() { return clock.getAsLong() - t0; }
    /** Counts the default run the main machine just finished as the search's first schedule. */
    void countDefault(Frame base) {
        points = base.offered;
        counted(true, runners.get(0).summarize(opt.maxSteps()));
    }
    boolean aborted() { return aborted; }
    JobRunners runners() { return runners; }
    long maxSteps() { return opt.maxSteps(); }
    /** Runs deeper (ExhaustionPass) keep no checkpoints of their own, forking from their ancestors': memory as counted. */
    int boundLevels() { return Math.max(1, opt.maxDeviations()); }
    Set<Long> visited() { return visited; }
    /** Forks the partial-order reduction did not make or cut as reorderings of explored runs. */
    void cutByPartialOrder(long n) { skippedByPartialOrder += n; }
    /** Counts the run the main machine just finished (a schedule first run as an inner node). */
    void countLastRun() { counted(true, runners.get(0).summarize(opt.maxSteps())); }

    /** The last checkpoint of {@code f} at or before decision {@code fork}, or the start. */
    Checkpoint forkCheckpoint(Frame f, long fork) {
        int i = forkCheckpointIndex(f, fork);
        return i >= 0 ? f.cps.get(i) : start;
    }

    private static int forkCheckpointIndex(Frame f, long fork) {
        int i = f.cpAt.size() - 1;
        while (i >= 0 && f.cpAt.get(i) > fork) i--;
        return i;
    }

    long cpInterval() { return Math.max(CHECKPOINT_INTERVAL, stateBytes / CHECKPOINT_BYTES_PER_STEP); }

    /** Whether a limit or cancel has come (asked inside schedules, from any runner's thread). */
    boolean due() {
        return cancelled || (deadline != Long.MAX_VALUE && clock.getAsLong() >= deadline);
    }

    /** A limit or cancel cut the schedule running: the search stops, saying which (the first reason stays). */
    private void cutByLimit() {
        aborted = true;
        if (stoppedBy == null) stoppedBy = cancelled ? Coverage.CANCELLED : Coverage.TIME_LIMIT;
    }

    /**
     * A run that ends in a race keeps every alternative it offered: which of two symmetric warps
     * goes first decides which of their index-dependent words meet which writes, and a run stops at
     * its first race, so a mirrored schedule can meet a race with other source lines.
     */
    void keepSymmetricIfRaced(Frame f) {
        if (f.skippedCount == 0) return;
        if (!Causes.raced(x)) return;
        // Run the frame again from the start to list what it skipped (deterministic: the same decisions),
        // leaving every count as it was.
        Frame again = new Frame(f.plan, f.after);
        again.listSkipped = true;
        again.sleep = f.sleep;
        long steps = warpSteps;
        long skippedBefore = skippedBySymmetry;
        long porBefore = skippedByPartialOrder;
        long blockedBefore = blockedInner;
        execute(f.plan, null, -1, again);
        warpSteps = steps;
        blockedInner = blockedBefore;
        skippedBySymmetry = skippedBefore;
        skippedByPartialOrder = porBefore;
        if (aborted) return;
        skippedBySymmetry -= f.keepSkipped(again.skipped);
    }

    /** Whether a budget share is spent (and why, once a full budget is). */
    boolean out(double share) {
        if (cancelled) {
            stoppedBy = Coverage.CANCELLED;
            return true;
        }
        long from = share < 1.0 ? shareFromSchedules : 0;
        if (schedules - from >= (long) Math.ceil(opt.schedules() * share)) {
            if (share >= 1.0) stoppedBy = Coverage.SCHEDULE_BUDGET;
            return true;
        }
        if (opt.timeLimitMillis() > 0 && clock.getAsLong() - t0 - (share < 1.0 ? shareFromMillis : 0) >= opt.timeLimitMillis() * share) {
            if (share >= 1.0) stoppedBy = Coverage.TIME_LIMIT;
            return true;
        }
        return false;
    }

    /**
     * Runs {@code plan} to its end, forking from the last checkpoint of {@code parent} at or before
     * decision {@code fork} (from the start without a parent). With {@code record} (the runs whose
     * alternatives are enumerated), collects its alternatives and checkpoints and records its states
     * as explored; without (minimisation's replays), only runs it. False when a limit cut it. Leaves
     * and random schedules run in {@link ScheduleRunner#leaf}.
     */
    boolean execute(Schedule plan, Frame parent, long fork, Frame record) {
        Checkpoint cp = start;
        int inherited = 0;
        if (parent != null) {
            int i = forkCheckpointIndex(parent, fork);
            if (i >= 0) cp = parent.cps.get(i);
            if (record != null) {
                for (int k = 0; k <= i; k++) {
                    record.cpAt.add(parent.cpAt.get(k));
                    record.cps.add(parent.cps.get(k));
                }
                inherited = i + 1;
            }
        }
        policy.follow(plan);
        cp.restoreInto(x);
        SleepSet sleep = record != null && sleepSets() ? new SleepSet(x, runners.get(0).footprints, record.sleep, boundedSleep()) : null;
        boolean cutSeen = false;
        DecisionLister lister = null;
        if (record != null) {
            lister = new DecisionLister(record, sleep, symmetry, m, raceFirst());
            policy.listen(lister, Math.max(0, record.after));
        } else {
            policy.listen(null, 0);
        }
        long from = m.steps;
        long lastCp = m.steps;
        long lastHash = m.steps;
        long nextCheck = m.steps + LIMIT_CHECK_STEPS;
        long cpInterval = cpInterval();
        boolean complete = true;
        aborted = false;
        TraceLog log = record != null && record.dpor != null ? record.dpor.own : null;
        if (record != null && record.dpor == null && raceFirst()) log = record.raceLog = new TraceLog();
        StepFootprints fps = runners.get(0).footprints;
        while (x.outcome() == Outcome.RUNNING) {
            if (m.steps >= opt.maxSteps()) {
                x.run(opt.maxSteps()); // ends the run as step-limit
                break;
            }
            if (m.steps >= nextCheck) {
                // Limits inside a schedule, so one long schedule cannot outlast them (the schedule is dropped).
                nextCheck = m.steps + LIMIT_CHECK_STEPS;
                if (due()) {
                    cutByLimit();
                    complete = false;
                    break;
                }
            }
            long before = policy.decisions();
            long stepsBefore = m.steps;
            if (sleep != null) sleep.beforeStep();
            if (log != null) log.before(x, fps, policy);
            x.step();
            long d = policy.decisions();
            if (sleep != null) {
                // From the fork's own step on (the base run: from the start), every step wakes what it depends on.
                if (d > record.after) sleep.afterStep(policy.currentWarp(), m.steps != stepsBefore);
                else fps.stop();
                if (sleep.blocked && !cutSeen) {
                    cutSeen = true;
                    record.dropAlternativesFrom(sleep.pendingFrom);
                }
            }
            if (log != null) {
                if (d > record.after) {
                    if (record.dpor != null && record.dpor.forkStepNo < 0) record.dpor.forkStepNo = stepsBefore;
                    log.closed |= sleep != null && sleep.blocked;
                    log.after(x, fps, policy);
                    if (log == record.raceLog && RaceFirst.full(log)) log.closed = true; // ordering only: a prefix will do
                } else {
                    fps.stop();
                }
            }
            if (d == before || x.outcome() != Outcome.RUNNING) continue;
            if (record != null) {
                if (d > record.after + 1 && runners.get(0).hashAllowed(lastHash, fullHashBytes)) { // runner 0 runs on this machine
                    lastHash = m.steps;
                    visited.add(runners.get(0).stateHash());
                }
                if (m.steps - lastCp >= cpInterval && record.plan.size() < boundLevels()) {
                    Checkpoint taken = Checkpoint.take(x);
                    lastCp = m.steps;
                    if (checkpointSyncBytes > 0 && taken.syncObjectBytes() > checkpointSyncBytes) {
                        checkpointsNotKept++;
                        continue;
                    }
                    record.cpAt.add(d);
                    record.cps.add(taken);
                    if (record.cps.size() - inherited > checkpointsPerRun) {
                        record.thinCheckpoints(inherited);
                        cpInterval *= 2;
                        thinnings++;
                    }
                    mostOwnCheckpoints = Math.max(mostOwnCheckpoints, record.cps.size() - inherited);
                }
            }
        }
        if (log != null && complete) log.pending(x);
        if (record != null) record.endRaceLog(m.warps);
        policy.listen(null, 0);
        if (lister != null) {
            skippedBySymmetry += lister.skippedBySymmetry;
            skippedByPartialOrder += lister.skippedByPartialOrder;
        }
        if (sleep != null) {
            runners.get(0).footprints.stop();
            if (complete) sleep.runEnded();
            if (sleep.blocked && !cutSeen) record.dropAlternativesFrom(sleep.pendingFrom);
            record.forkStep = sleep.forkStep;
            if (sleep.blocked) blockedInner++;
        }
        warpSteps += m.steps - from;
        return complete;
    }

    /** Tests: the state size the hash budget uses. */
    long stateBytes() { return stateBytes; }

    /** Counts the schedule just run and files its outcome and any finding. */
    private void counted(boolean systematicPhase, ScheduleRunner.Summary s) {
        schedules++;
        if (systematicPhase) systematic++;
        else random++;
        findings.file(s, schedules, () -> clock.getAsLong() - t0);
        if (scheduleListener != null) scheduleListener.accept(s.taken());
        if (progress != null) progress.explored(schedules, findings.size());
    }

    /** Clock units from the start of {@link #explore} until {@code f} was first found (wall time: benchmarks only). */
    public long foundAfter(Finding f) { return findings.foundAfter(f); }

    /** Tests: minimises {@code found} for {@code cause} with the replay cap only. */
    Minimization minimize(Schedule found, String cause) { return minimize(found, cause, () -> cancelled); }

    /** Tests: minimises {@code found} for {@code cause}, stopping when {@code over} says so. */
    Minimization minimize(Schedule found, String cause, java.util.function.BooleanSupplier over) {
        if (opt == null) opt = new Options(1, 0, 0, 1, run.maxSteps());
        return minimizer().minimize(found, cause, MAX_MINIMIZE_REPLAYS, over);
    }

    /** Whether the run, once {@link #replay} finished it, ended in {@code cause} (a finding's). */
    public boolean replayEndsIn(String cause) {
        return Causes.met(x, opt != null ? opt.maxSteps() : run.maxSteps(), cause);
    }

    /** Replays {@code s} from the start on the explored run; afterwards the run is in its final state. */
    public Outcome replay(Schedule s) {
        policy.follow(s);
        start.restoreInto(x);
        return run.runToEnd(opt != null ? opt.maxSteps() : run.maxSteps());
    }
}
