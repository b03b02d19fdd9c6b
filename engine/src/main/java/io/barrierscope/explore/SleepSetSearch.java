package io.barrierscope.explore;

import java.util.List;

/**
 * The explorer's search tree without source sets: every alternative of every decision after a
 * run's fork is forked (less the sleep set when the partial-order reduction is on, and the
 * symmetric warps), decision by decision in run order, down to the bound; the forks at the last
 * depth are leaves, run in batches over the runners and filed in order.
 */
final class SleepSetSearch {
    private final Explorer ex;

    SleepSetSearch(Explorer ex) { this.ex = ex; }

    /** Runs every child of {@code f} with one more forced decision; false once a budget is spent. */
    boolean expand(Frame f, int depth, int bound) {
        if (depth == bound) return leaves(f);
        for (long[] a : forks(f)) {
            if (ex.out(ex.systematicShare())) return false;
            Schedule child = f.plan.with(a[0], (char) a[1], a[2]);
            Frame c = new Frame(child, a[0]);
            SleepSet.Point p = a.length > 3 && a[3] >= 0 ? f.points.get((int) a[3]) : null;
            if (p != null) c.sleep = p.forChild(a[1] == SchedulePolicy.WARP);
            ex.execute(child, f, a[0], c);
            if (ex.aborted()) return false;
            if (p != null && c.forkStep != null) p.siblings.add(c.forkStep);
            ex.keepSymmetricIfRaced(c);
            if (ex.aborted()) return false;
            if (!expand(c, depth + 1, bound)) return false;
        }
        return true;
    }

    /**
     * Runs the children of {@code f} that are not expanded further (leaves), handed out to the
     * runners ahead of filing ({@link JobRunners#ahead}), and files them in order: a leaf is pruned at the first of its hashes some earlier
     * schedule had, exactly as one runner going through them in turn would decide, so the findings,
     * counts and schedules do not depend on the number of jobs.
     */
    private boolean leaves(Frame f) {
        double share = ex.systematicShare();
        JobRunners runners = ex.runners();
        List<long[]> as = forks(f);
        long lastFork = -1;
        for (long[] a : as) lastFork = Math.max(lastFork, a[0]);
        SleepSet.Sleeper[][] sleepOf = leafSleeps(f, as);
        try (JobRunners.Stream<ScheduleRunner.Leaf> st = runners.stream()) {
            List<LeafJob> jobs = new java.util.ArrayList<>();
            for (int i = 0; i < as.size(); i++) {
                while (jobs.size() < as.size() && jobs.size() < i + runners.ahead()) {
                    int k = jobs.size();
                    LeafJob j = new LeafJob(ex, st, f, as.get(k), lastFork, sleepOf == null ? null : sleepOf[k], false);
                    jobs.add(j);
                    st.submit(j);
                }
                if (ex.out(share)) return false;
                if (ex.fileLeaf(st.take(i), jobs.get(i).cpStep, true) == Explorer.FILED_ABORTED) return false;
            }
        }
        return true;
    }

    /**
     * The sleep set each leaf of {@code f} starts with, in the order {@code as} forks them (null
     * without the reduction). Leaves may run at once, so the first step of each warp fork that has a
     * later sibling at its decision is run here first, in order, on this machine: the later siblings
     * sleep on it as they would after an expanded sibling, whatever the number of jobs.
     */
    private SleepSet.Sleeper[][] leafSleeps(Frame f, List<long[]> as) {
        if (!ex.sleepSets()) return null;
        SleepSet.Sleeper[][] out = new SleepSet.Sleeper[as.size()][];
        for (int i = 0; i < as.size(); i++) {
            long[] a = as.get(i);
            if (a.length <= 3 || a[3] < 0) continue;
            SleepSet.Point p = f.points.get((int) a[3]);
            boolean warp = a[1] == SchedulePolicy.WARP;
            out[i] = p.forChild(warp);
            boolean laterSibling = false;
            for (int j = i + 1; j < as.size() && !laterSibling; j++) {
                long[] b = as.get(j);
                laterSibling = b.length > 3 && b[3] == a[3] && b[1] == SchedulePolicy.WARP;
            }
            if (!warp || !laterSibling || ex.boundedSleep()) continue; // bounded: siblings' steps never sleep
            SleepSet.Sleeper e = ex.runners().get(0).forkStep(f.plan.with(a[0], (char) a[1], a[2]), ex.forkCheckpoint(f, a[0]), a[0],
                    ex.maxSteps());
            if (e != null) p.siblings.add(e);
        }
        return out;
    }

    /** {@code f}'s alternatives in the order its forks are made: race-reversing ones first when {@link Explorer#raceFirst()}. */
    private List<long[]> forks(Frame f) {
        return ex.raceFirst() ? RaceFirst.order(f.alternatives, f.raceReversible) : f.alternatives;
    }
}
