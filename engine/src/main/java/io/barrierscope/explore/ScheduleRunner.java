package io.barrierscope.explore;

import io.barrierscope.exec.Interpreter;
import io.barrierscope.exec.Machine;
import io.barrierscope.exec.Outcome;
import io.barrierscope.exec.SplitMix64;
import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.trace.Checkpoint;
import io.barrierscope.trace.StateHash;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.BooleanSupplier;

/**
 * Runs single schedules of one launch on its own machine: the search's leaves (forks that are not
 * expanded further) and its random schedules. The explorer owns one runner on the launch it was
 * given and, with {@code --jobs N}, N - 1 more on their own copies of the launch, one per worker
 * thread; each run is single-threaded and deterministic, and a runner hands back everything the
 * explorer needs to file the run in the order one runner alone would have (see {@link Leaf}).
 */
final class ScheduleRunner {
    /**
     * One schedule's run: the state hashes taken after its fork (at most
     * {@link ExploreTuning#HASHES_AFTER_FORK}) with the step of each, whether it stopped at a hash already
     * known when it started (then the explorer prunes it at that hash or an earlier one), whether a
     * limit cut it, the step it ended at and, when it ran to its end, its summary.
     * {@code cutAtFork}: a redundant leaf cut by the bounded sleep sets at its fork's own step, so
     * every schedule through the fork, at any depth, has an explored equivalent (docs/explore.md,
     * "Sleep sets within the bound"): it hides nothing from deeper bounds.
     */
    record Leaf(long[] hashes, long[] stepsAt, int hashCount, boolean stoppedEarly, boolean aborted, long endSteps, Summary summary,
                boolean redundant, TraceLog events, long forkStepNo, boolean cutAtFork) {
        Leaf(long[] hashes, long[] stepsAt, int hashCount, boolean stoppedEarly, boolean aborted, long endSteps, Summary summary,
             boolean redundant) {
            this(hashes, stepsAt, hashCount, stoppedEarly, aborted, endSteps, summary, redundant, null, -1, false);
        }

        Leaf(long[] hashes, long[] stepsAt, int hashCount, boolean stoppedEarly, boolean aborted, long endSteps, Summary summary,
             boolean redundant, TraceLog events, long forkStepNo) {
            this(hashes, stepsAt, hashCount, stoppedEarly, aborted, endSteps, summary, redundant, events, forkStepNo, false);
        }
    }

    /** A finished run as the explorer files it: the outcome key, its causes and its schedule. */
    record Summary(Outcome outcome, String key, List<Causes.Cause> causes, Schedule taken) {}

    final LaunchedRun run;
    final Interpreter x;
    final Machine m;
    final SchedulePolicy policy;
    final Checkpoint start;
    /** Notes the steps' footprints for the partial-order reduction (only while an enumerating run asks). */
    final StepFootprints footprints;
    /** Leaves use the sleep sets sound within the deviation bound ({@link SleepSet#bounded}); set per search. */
    boolean boundedSleep;
    final long stateBytes;
    /** This machine's per-warp digests for explore's state hash (docs/explore.md, "State hashes"). */
    final WarpDigests digests;
    long hashes;
    /** Measurements (JobStats): CPU in tasks on this runner's thread, of which replays for checkpoints, and runs made. */
    long taskCpu;
    long replayCpu;
    long runs;

    /** A worker's own checkpoints of the frame whose leaves it runs (checkpoints do not move between machines). */
    private Object cachedFrame;
    private final List<Long> cacheAt = new ArrayList<>();
    private final List<Checkpoint> cacheCps = new ArrayList<>();

    ScheduleRunner(LaunchedRun run) {
        if (!(run.interpreter().policy() instanceof SchedulePolicy p)) throw new IllegalArgumentException("needs a SchedulePolicy run");
        this.run = run;
        this.x = run.interpreter();
        this.m = run.machine();
        this.policy = p;
        // Every runner's machine gets the collector, so state hashes agree between runners (it collects only when asked).
        this.footprints = StepFootprints.install(x);
        this.start = Checkpoint.take(x);
        this.stateBytes = Math.max(1, start.bytes());
        this.digests = new WarpDigests(m);
    }

    /**
     * Whether a state hash may be taken now: always for states up to {@code fullHashBytes}; for
     * larger ones only once the run has gone {@code stateBytes / HASH_BYTES_PER_STEP} steps since its
     * last hash (or its start), so hashing costs a bounded number of bytes per warp step, whatever the
     * machine's size. Fewer hashes prune less; they never drop a schedule wrongly. A function of step
     * counts only, so the search stays deterministic.
     */
    boolean hashAllowed(long lastHash, long fullHashBytes) {
        return stateBytes <= fullHashBytes || m.steps - lastHash >= stateBytes / ExploreTuning.HASH_BYTES_PER_STEP;
    }

    long stateHash() {
        hashes++;
        return StateHash.of(x, digests);
    }

    /**
     * Runs {@code plan} from {@code cp} to its end, hashing up to {@link Explorer#HASHES_AFTER_FORK}
     * decision boundaries after decision {@code fork} (none when it is negative) and stopping at a hash
     * in {@code seen}, which it only reads. {@code due} is asked every
     * {@link Explorer#LIMIT_CHECK_STEPS} steps whether a limit or cancel has come. With a sleep set
     * (partial-order reduction), the run stops as {@code redundant} when a sleeping warp steps.
     */
    Leaf leaf(Schedule plan, Checkpoint cp, long fork, Set<Long> seen, long maxSteps, long fullHashBytes, BooleanSupplier due,
              SleepSet.Sleeper[] sleepers) {
        return leaf(plan, cp, fork, seen, maxSteps, fullHashBytes, due, sleepers, false);
    }

    /** As above; with {@code logSteps}, the steps from the fork on are logged for the source-set reduction ({@link Leaf#events}). */
    Leaf leaf(Schedule plan, Checkpoint cp, long fork, Set<Long> seen, long maxSteps, long fullHashBytes, BooleanSupplier due,
              SleepSet.Sleeper[] sleepers, boolean logSteps) {
        TraceLog log = logSteps ? new TraceLog() : null;
        long forkStepNo = -1;
        policy.follow(plan);
        cp.restoreInto(x);
        policy.listen(null, 0);
        SleepSet sleep = sleepers != null && sleepers.length > 0 ? new SleepSet(x, footprints, sleepers, boundedSleep) : null;
        long[] hs = new long[ExploreTuning.HASHES_AFTER_FORK];
        long[] at = new long[ExploreTuning.HASHES_AFTER_FORK];
        int n = 0;
        long lastHash = m.steps;
        long nextCheck = m.steps + ExploreTuning.LIMIT_CHECK_STEPS;
        while (x.outcome() == Outcome.RUNNING) {
            if (m.steps >= maxSteps) {
                x.run(maxSteps); // ends the run as step-limit
                break;
            }
            if (m.steps >= nextCheck) {
                nextCheck = m.steps + ExploreTuning.LIMIT_CHECK_STEPS;
                if (due.getAsBoolean()) {
                    footprints.stop();
                    return new Leaf(hs, at, n, false, true, m.steps, null, false, log, forkStepNo);
                }
            }
            long before = policy.decisions();
            long stepsBefore = m.steps;
            if (sleep != null) sleep.beforeStep();
            if (log != null) log.before(x, footprints, policy);
            x.step();
            long d = policy.decisions();
            if (sleep != null) {
                if (d > fork) sleep.afterStep(policy.currentWarp(), m.steps != stepsBefore);
                else footprints.stop();
                if (sleep.blocked) {
                    footprints.stop();
                    return new Leaf(hs, at, n, false, false, m.steps, null, true, log, forkStepNo, cutAtFork(sleep, fork));
                }
                if (d > fork && sleep.empty()) {
                    // A leaf's set only shrinks: once empty nothing can be blocked, so stop noting footprints.
                    footprints.stop();
                    sleep = null;
                }
            }
            if (log != null) {
                if (d > fork) {
                    if (forkStepNo < 0) forkStepNo = stepsBefore;
                    log.after(x, footprints, policy);
                } else {
                    footprints.stop();
                }
            }
            if (d == before || x.outcome() != Outcome.RUNNING) continue;
            if (fork >= 0 && n < ExploreTuning.HASHES_AFTER_FORK && d > fork && hashAllowed(lastHash, fullHashBytes)) {
                lastHash = m.steps;
                long h = stateHash();
                hs[n] = h;
                at[n] = m.steps;
                n++;
                if (seen.contains(h)) {
                    footprints.stop();
                    return new Leaf(hs, at, n, true, false, m.steps, null, false, log, forkStepNo);
                }
            }
        }
        footprints.stop();
        if (sleep != null) {
            sleep.runEnded();
            if (sleep.blocked) return new Leaf(hs, at, n, false, false, m.steps, null, true, log, forkStepNo, cutAtFork(sleep, fork));
        }
        if (log != null) log.pending(x);
        return new Leaf(hs, at, n, false, false, m.steps, summarize(maxSteps), false, log, forkStepNo);
    }

    /** Whether a bounded cut came at the fork's own step: no decision with alternatives between the fork and the cut. */
    private static boolean cutAtFork(SleepSet sleep, long fork) {
        return sleep.bounded && sleep.pendingFrom >= 0 && sleep.pendingFrom <= fork + 1;
    }

    /**
     * The sleep-set entry of the first step of {@code plan}'s fork at decision {@code fork} (a warp
     * decision), run from {@code cp} just past it; null when it may not sleep or the run ended first.
     */
    SleepSet.Sleeper forkStep(Schedule plan, Checkpoint cp, long fork, long maxSteps) {
        policy.follow(plan);
        cp.restoreInto(x);
        SleepSet sleep = new SleepSet(x, footprints, SleepSet.NONE);
        policy.listen((idx, kind, chosen, alts, n) -> {
            if (idx == fork && kind == SchedulePolicy.WARP) sleep.forkDecision((int) chosen);
        }, fork);
        try {
            while (x.outcome() == Outcome.RUNNING && m.steps < maxSteps && policy.decisions() <= fork) {
                long stepsBefore = m.steps;
                sleep.beforeStep();
                x.step();
                if (policy.decisions() > fork) sleep.afterStep(policy.currentWarp(), m.steps != stepsBefore);
            }
        } finally {
            footprints.stop();
            policy.listen(null, 0);
        }
        return sleep.forkStep;
    }

    /** One random schedule (seeded), from the start. */
    Leaf random(long seed, int odds, long maxSteps, BooleanSupplier due) {
        policy.randomize(new SplitMix64(seed), odds);
        try {
            return leaf(Schedule.EMPTY, start, -1, Set.of(), maxSteps, Long.MAX_VALUE, due, null);
        } finally {
            policy.randomize(null, 0);
        }
    }

    /** The run just finished, as the explorer files it. */
    Summary summarize(long maxSteps) {
        Outcome o = x.outcome();
        List<Causes.Cause> causes = Causes.of(x, maxSteps);
        StringBuilder key = new StringBuilder(o.jsonName());
        for (Causes.Cause c : causes) key.append(' ').append(c.cause());
        if (o == Outcome.COMPLETED) key.append(' ').append(Long.toHexString(run.buffersHash64()));
        return new Summary(o, key.toString(), causes, policy.taken());
    }

    /**
     * The last checkpoint of this machine at or before decision {@code fork} of the run of
     * {@code plan} (identified by {@code frame}), replaying {@code plan} from the start once per
     * frame to take them every {@code interval} steps at decision boundaries. Null when a limit cut
     * the replay.
     */
    Checkpoint forkPoint(Object frame, Schedule plan, long fork, long lastFork, long interval, long maxSteps, BooleanSupplier due) {
        if (cachedFrame != frame) {
            long c0 = JobRunners.cpu();
            try {
                if (!replayTo(plan, lastFork, interval, maxSteps, due)) return null;
            } finally {
                replayCpu += JobRunners.cpu() - c0;
            }
            cachedFrame = frame;
        }
        Checkpoint cp = start;
        for (int i = 0; i < cacheAt.size() && cacheAt.get(i) <= fork; i++) cp = cacheCps.get(i);
        return cp;
    }

    /** Replays {@code plan} from the start up to decision {@code lastFork}, keeping checkpoints every {@code interval} steps; false when a limit cut it. */
    private boolean replayTo(Schedule plan, long lastFork, long interval, long maxSteps, BooleanSupplier due) {
        cachedFrame = null;
        cacheAt.clear();
        cacheCps.clear();
        policy.follow(plan);
        start.restoreInto(x);
        policy.listen(null, 0);
        long lastCp = m.steps;
        long nextCheck = m.steps + ExploreTuning.LIMIT_CHECK_STEPS;
        while (x.outcome() == Outcome.RUNNING && m.steps < maxSteps && policy.decisions() <= lastFork) {
            if (m.steps >= nextCheck) {
                nextCheck = m.steps + ExploreTuning.LIMIT_CHECK_STEPS;
                if (due.getAsBoolean()) return false;
            }
            long before = policy.decisions();
            x.step();
            long d = policy.decisions();
            if (d != before && x.outcome() == Outcome.RUNNING && m.steps - lastCp >= interval) {
                Checkpoint cp = Checkpoint.take(x);
                lastCp = m.steps;
                // As the explorer's fork checkpoints: not kept past what the launch counted for their copies.
                long most = run.forkCheckpointSyncBytes();
                if (most > 0 && cp.syncObjectBytes() > most) continue;
                cacheAt.add(d);
                cacheCps.add(cp);
            }
        }
        return true;
    }
}
