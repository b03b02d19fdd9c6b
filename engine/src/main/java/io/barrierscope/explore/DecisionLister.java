package io.barrierscope.explore;

import io.barrierscope.exec.Machine;

/**
 * Lists the alternatives of one enumerating run's decisions (after its fork) as the run takes them,
 * less those the reductions drop: symmetric warps ({@link WarpSymmetry}) and sleeping warps
 * ({@link SleepSet}). Without source sets every alternative left becomes a fork of the frame; with
 * them, a warp decision's alternatives are only noted ({@link SourceSetSearch.State#point}) and
 * forked where a race asks for one.
 */
final class DecisionLister implements SchedulePolicy.PointListener {
    private final Frame record;
    private final SleepSet sleep;
    private final WarpSymmetry symmetry;
    private final Machine m;
    private final SourceSetSearch.State ds;
    /** Whether forks are ordered race-reversing first (RaceFirst): a skipped alternative then carries its decision's step. */
    private final boolean raceFirst;
    /** The alternatives of a decision before the reduction (scratch, reused). */
    private long[] offeredScratch = new long[64];
    long skippedBySymmetry;
    long skippedByPartialOrder;

    DecisionLister(Frame record, SleepSet sleep, WarpSymmetry symmetry, Machine m, boolean raceFirst) {
        this.record = record;
        this.raceFirst = raceFirst;
        this.sleep = sleep;
        this.symmetry = symmetry;
        this.m = m;
        this.ds = record.dpor;
    }

    @Override
    public void point(long idx, char kind, long chosen, long[] alts, int n) {
        if (idx == record.after) { // the fork itself: only its step's entry is wanted
            if (sleep != null && kind == SchedulePolicy.WARP) sleep.forkDecision((int) chosen);
            return;
        }
        if (sleep != null && sleep.blocked) return; // only reorders an explored schedule from here on
        record.offered += n;
        boolean sourceSetPoint = ds != null && kind == SchedulePolicy.WARP;
        long[] offeredMask = sourceSetPoint ? SourceSetSearch.mask(alts, n, m.warps) : null;
        int keep = n;
        if (kind == SchedulePolicy.WARP && symmetry != null) {
            long[] offered = offeredScratch.length >= n ? offeredScratch : (offeredScratch = new long[n]);
            System.arraycopy(alts, 0, offered, 0, n);
            keep = symmetry.reduce(m, (int) chosen, alts, n);
            skippedBySymmetry += n - keep;
            record.skippedCount += n - keep;
            for (int o = 0; o < n && record.listSkipped; o++) {
                long v = offered[o];
                boolean kept = false;
                for (int k = 0; k < keep && !kept; k++) kept = alts[k] == v;
                // For RaceFirst, which may then order a raced run's symmetric alternative first: no sleep point (-1), as
                // before, and the step. Other reductions keep the short entry (source sets read a longer one as a warp fork's).
                if (!kept) record.skipped.add(raceFirst ? new long[] {idx, kind, v, -1, m.steps} : new long[] {idx, kind, v});
            }
        }
        int point = -1;
        long[] asleepMask = sourceSetPoint ? WarpBits.empty(m.warps) : null;
        if (sleep != null && keep > 0) {
            int kept = 0;
            for (int k = 0; k < keep; k++) {
                // Bounded sleep sets fork to a sleeping warp too: its run is cut only where the swap costs no decision more.
                if (kind != SchedulePolicy.WARP || sleep.bounded || !sleep.asleep((int) alts[k])) alts[kept++] = alts[k];
                else if (asleepMask != null) WarpBits.set(asleepMask, (int) alts[k]);
            }
            if (ds == null) skippedByPartialOrder += keep - kept;
            keep = kept;
            if (keep > 0) {
                point = record.points.size();
                record.points.add(sleep.point(kind == SchedulePolicy.WARP, (int) chosen));
            }
        }
        if (sourceSetPoint) {
            ds.point(idx, (int) chosen, offeredMask, asleepMask, java.util.Arrays.copyOf(alts, keep), point, m.steps);
            return; // warp forks: only where a race asks for one (SourceSetSearch)
        }
        for (int k = 0; k < keep; k++) record.alternatives.add(new long[] {idx, kind, alts[k], point, m.steps}); // m.steps: for RaceFirst
    }
}
