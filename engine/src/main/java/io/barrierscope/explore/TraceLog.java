package io.barrierscope.explore;

import io.barrierscope.exec.Interpreter;
import io.barrierscope.exec.Machine;
import java.util.Arrays;

/**
 * The steps of one explored run that matter to the source-set reduction ({@link SourceSets}), in
 * order: for each, its step number, the warp decision taken right before it (-1: none, the warp
 * ran on without a choice), its warp, its footprint ({@link StepFootprints}) and the warps whose
 * runnability it changed (a barrier release, a wake: an enabling edge). Register-only steps without
 * a decision are left out (independent of everything). A step at whose start a copy lands or a
 * timed wait wakes is dependent with every step, as in the sleep sets. The warps a step enabled
 * are a {@link WarpBits} set (null: none, as for most steps), so any number of warps fits.
 */
final class TraceLog {
    long[] step = new long[64];
    long[] point = new long[64];
    int[] warp = new int[64];
    StepFootprints.Footprint[] fp = new StepFootprints.Footprint[64];
    /** Per entry the warps whose runnability it changed ({@link WarpBits}; null: none). Never changed once added. */
    long[][] enables = new long[64][];
    int n;
    /** Footprint keys held by the entries (RaceFirst bounds its log's memory by them). */
    long keys;

    /** Recording state (between {@link #before} and {@link #after}). */
    private int[] runBefore;
    private boolean timed;
    private long decisionsBefore;
    private long stepBefore;
    /** Set once the run is cut (a sleeping warp stepped): later steps reorder an explored run and are not logged. */
    boolean closed;

    /** Before a step: starts its footprint and notes what the step may change. */
    void before(Interpreter x, StepFootprints f, SchedulePolicy p) {
        Machine m = x.machine();
        if (runBefore == null) runBefore = new int[m.warps];
        System.arraycopy(m.runMask, 0, runBefore, 0, m.warps);
        timed = m.cycles >= x.nextWake() || m.cycles >= m.async.nextReady();
        decisionsBefore = p.decisions();
        stepBefore = m.steps;
        f.begin();
    }

    /** After the step (when it belongs to the run's own part): logs it if it matters. */
    void after(Interpreter x, StepFootprints f, SchedulePolicy p) {
        f.stop();
        Machine m = x.machine();
        // A step that ends the run (a race, a fault) may not count as a step, but what it touched is its race.
        if (closed || (m.steps == stepBefore && x.outcome() == io.barrierscope.exec.Outcome.RUNNING)) return;
        int w = p.currentWarp();
        long pt = p.lastWarpPoint() >= decisionsBefore ? p.lastWarpPoint() : -1;
        long[] en = null;
        for (int v = 0; v < m.warps; v++) {
            if (v == w || m.runMask[v] == runBefore[v]) continue;
            if (en == null) en = WarpBits.empty(m.warps);
            WarpBits.set(en, v);
        }
        boolean all = timed || f.everything();
        StepFootprints.Footprint foot = all ? StepFootprints.Footprint.EVERYTHING : f.footprint();
        if (pt < 0 && en == null && !all && foot.keys().length == 0) return;
        add(stepBefore, pt, w, foot, en);
    }

    /**
     * At the end of a run that stopped with warps still able to run (a diagnostic, a fault, the
     * step limit): their next steps were never taken, so each is logged as a step dependent with
     * everything. Its races ask for the orders in which those warps would have stepped first (a
     * run stops at its first race, so which warp reads first decides which race is met).
     */
    void pending(Interpreter x) {
        Machine m = x.machine();
        if (closed || x.outcome() == io.barrierscope.exec.Outcome.RUNNING) return;
        for (int w = 0; w < m.warps; w++) if (m.runMask[w] != 0) add(m.steps, -1, w, StepFootprints.Footprint.EVERYTHING, null);
    }

    void add(long s, long pt, int w, StepFootprints.Footprint foot, long[] en) {
        if (n == step.length) {
            int c = n * 2;
            step = Arrays.copyOf(step, c);
            point = Arrays.copyOf(point, c);
            warp = Arrays.copyOf(warp, c);
            fp = Arrays.copyOf(fp, c);
            enables = Arrays.copyOf(enables, c);
        }
        step[n] = s;
        point[n] = pt;
        warp[n] = w;
        fp[n] = foot;
        enables[n] = en;
        keys += foot.keys().length;
        n++;
    }

    /** How many of this log's entries come before step {@code s} (the part a fork at that step shares). */
    int countBefore(long s) {
        int lo = 0;
        int hi = n;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (step[mid] < s) lo = mid + 1;
            else hi = mid;
        }
        return lo;
    }

    /** The first {@code count} entries of {@code prefix} followed by every entry of {@code own}. */
    static TraceLog concat(TraceLog prefix, int count, TraceLog own) {
        TraceLog t = new TraceLog();
        int total = count + own.n;
        t.step = new long[Math.max(1, total)];
        t.point = new long[t.step.length];
        t.warp = new int[t.step.length];
        t.fp = new StepFootprints.Footprint[t.step.length];
        t.enables = new long[t.step.length][];
        if (prefix != null) {
            System.arraycopy(prefix.step, 0, t.step, 0, count);
            System.arraycopy(prefix.point, 0, t.point, 0, count);
            System.arraycopy(prefix.warp, 0, t.warp, 0, count);
            System.arraycopy(prefix.fp, 0, t.fp, 0, count);
            System.arraycopy(prefix.enables, 0, t.enables, 0, count);
        }
        System.arraycopy(own.step, 0, t.step, count, own.n);
        System.arraycopy(own.point, 0, t.point, count, own.n);
        System.arraycopy(own.warp, 0, t.warp, count, own.n);
        System.arraycopy(own.fp, 0, t.fp, count, own.n);
        System.arraycopy(own.enables, 0, t.enables, count, own.n);
        t.n = total;
        return t;
    }
}
