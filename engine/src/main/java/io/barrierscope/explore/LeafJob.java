package io.barrierscope.explore;

import io.barrierscope.trace.Checkpoint;
import java.util.function.BooleanSupplier;

/**
 * One leaf of the systematic search as a task for any runner: frame {@code f}'s plan with the forced
 * decision {@code a}, run from {@code f}'s checkpoint before it to its end. A worker whose machine
 * shares the main machine's Program restores the main machine's checkpoint (checkpoints are
 * immutable once taken); any other replays {@code f}'s plan once for checkpoints of its own. The
 * run reads the explored states only to stop early at one already known, which a state known when
 * it runs also is when it is filed (filing is in order and only adds), so its result is the one
 * running it in turn would give.
 */
class LeafJob implements JobRunners.Job<ScheduleRunner.Leaf> {
    private final Explorer ex;
    private final JobRunners.Stream<ScheduleRunner.Leaf> stream;
    private final Frame f;
    private final long[] a;
    private final long lastFork;
    private final SleepSet.Sleeper[] sleepers;
    private final boolean logSteps;
    /** The step of the main machine's checkpoint the leaf forks from (what warp steps are counted from). */
    final long cpStep;

    LeafJob(Explorer ex, JobRunners.Stream<ScheduleRunner.Leaf> stream, Frame f, long[] a, long lastFork, SleepSet.Sleeper[] sleepers,
            boolean logSteps) {
        this.ex = ex;
        this.stream = stream;
        this.f = f;
        this.a = a;
        this.lastFork = lastFork;
        this.sleepers = sleepers;
        this.logSteps = logSteps;
        this.cpStep = ex.forkCheckpoint(f, a[0]).step();
    }

    @Override
    public ScheduleRunner.Leaf run(ScheduleRunner r) {
        // A closed stream's task is thrown away: stop it as a limit would.
        BooleanSupplier due = () -> stream.closed() || ex.due();
        Checkpoint cp = ex.runners().sharesCheckpoints(r) ? ex.forkCheckpoint(f, a[0])
                : r.forkPoint(f, f.plan, a[0], lastFork, ex.cpInterval(), ex.maxSteps(), due);
        if (cp == null) return new ScheduleRunner.Leaf(new long[0], new long[0], 0, false, true, cpStep, null, false);
        Schedule child = f.plan.with(a[0], (char) a[1], a[2]);
        ScheduleRunner.Leaf leaf = r.leaf(child, cp, a[0], ex.visited(), ex.maxSteps(), ex.fullHashBytes, due, sleepers, logSteps);
        after(leaf);
        return leaf;
    }

    /** Work on the finished run that may happen on the same thread (it must read only what no filing changes). */
    void after(ScheduleRunner.Leaf leaf) {}
}
