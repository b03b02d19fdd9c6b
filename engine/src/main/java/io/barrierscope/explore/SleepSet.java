package io.barrierscope.explore;

import io.barrierscope.exec.Interpreter;
import io.barrierscope.exec.Machine;
import io.barrierscope.exec.Policy;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The partial-order reduction of one enumerating run (docs/explore.md, "Partial-order
 * reduction"): sleep sets over warp steps. A warp is asleep at a decision when a schedule that
 * runs its next step first was already (or will be, at the same bound) explored from an earlier
 * point with everything run since independent of that step; a fork to it would only reorder
 * independent steps, so it is not made. The run's decision that took warp c puts c to sleep in
 * every sibling fork, and each sibling fork puts its own warp to sleep in the later siblings; a
 * step wakes every sleeper it depends on ({@link StepFootprints.Footprint#dependent}) and its own
 * warp. A step's entry is only put to sleep when swapping it cannot change which later decisions
 * are defaults: its warp was one convergence group and the step changed no other warp's
 * runnability (its own may change: an exit or a wait can sleep). A copy landing or a timed wait waking (fixed by virtual time, not by a step)
 * empties the set. Shrinking the set is always safe; only a larger one prunes more.
 */
final class SleepSet {
    /** Warp {@code warp}'s next step, at {@code pc}, with what it touches. */
    record Sleeper(int warp, int pc, StepFootprints.Footprint fp) {}

    /** One decision of the run with alternatives kept: the set there, and the entries its forks put to sleep. */
    static final class Point {
        final Sleeper[] sleep;
        /** The step the run itself took here (a warp decision whose step qualified), or null. */
        Sleeper chosen;
        /** Steps of the forks already made here, in order (each sleeps in the later ones). */
        final List<Sleeper> siblings = new ArrayList<>();

        Point(Sleeper[] sleep) { this.sleep = sleep; }

        /** The set a fork made here starts with: warp forks add the run's own step and earlier siblings'. */
        Sleeper[] forChild(boolean warpFork) {
            if (!warpFork) return sleep;
            List<Sleeper> out = new ArrayList<>(Arrays.asList(sleep));
            if (chosen != null) out.add(chosen);
            out.addAll(siblings);
            return out.toArray(new Sleeper[0]);
        }
    }

    static final Sleeper[] NONE = new Sleeper[0];

    private final Machine m;
    private final Interpreter x;
    private final StepFootprints footprints;
    private Sleeper[] z;
    /** Pre-step capture of the warp about to step (for its entry), or -1. */
    private int capWarp = -1;
    private int capPc;
    private boolean capConvergent;
    private int[] capRun;
    private Point capPoint;
    private boolean capFork;
    /** The entry of the fork's own step, once run (null: not a warp fork, or it did not qualify). */
    Sleeper forkStep;
    /**
     * Set once a warp stepped while asleep (the run's defaults took it): from there on the run only
     * reorders independent steps of a schedule explored from the point that put it to sleep, so it
     * is cut there (a leaf) or enumerates nothing further (a run whose alternatives are listed).
     */
    boolean blocked;

    SleepSet(Interpreter x, StepFootprints footprints, Sleeper[] initial) {
        this.x = x;
        this.m = x.machine();
        this.footprints = footprints;
        this.z = initial;
    }

    /** Before each step: a copy landing or a sleeper waking at its start is no step's to reorder. */
    void beforeStep() {
        if (z.length > 0 && (m.cycles >= x.nextWake() || m.cycles >= m.async.nextReady())) z = NONE;
        footprints.begin();
    }

    /** Whether no warp is asleep. */
    boolean empty() { return z.length == 0; }

    /** Whether warp {@code w} is asleep (its next step is still the one put to sleep). */
    boolean asleep(int w) {
        int pc = firstLanePc(w);
        for (Sleeper s : z) if (s.warp == w && s.pc == pc) return true;
        return false;
    }

    /** A decision with alternatives: its point (the set now); for a warp decision, notes the chosen warp's step. */
    Point point(boolean warpDecision, int chosen) {
        Point p = new Point(z);
        if (warpDecision) {
            capture(chosen);
            capPoint = p;
        }
        return p;
    }

    /** The fork's own warp decision: its step's entry goes to the parent's later siblings. */
    void forkDecision(int warp) {
        capture(warp);
        capFork = true;
    }

    private void capture(int w) {
        capWarp = w;
        capPc = firstLanePc(w);
        int run = m.runMask[w];
        capConvergent = run != 0 && Policy.sameLanes(m, w, run, Integer.numberOfTrailingZeros(run)) == run
                && !x.op(capPc).touchesStateOutsideTheHook();
        if (capRun == null || capRun.length != m.warps) capRun = new int[m.warps];
        System.arraycopy(m.runMask, 0, capRun, 0, m.warps);
    }

    /** After each step from the fork on: fills the captured entries, then wakes what the step depends on. */
    void afterStep(int warp, boolean stepped) {
        footprints.stop();
        if (!stepped) {
            capWarp = -1;
            capPoint = null;
            capFork = false;
            return;
        }
        if (capWarp >= 0) {
            // The footprint is only built (and kept) for an entry that may sleep.
            Sleeper e = qualifies() ? new Sleeper(capWarp, capPc, footprints.footprint()) : null;
            if (capPoint != null) capPoint.chosen = e;
            if (capFork) forkStep = e;
            capWarp = -1;
            capPoint = null;
            capFork = false;
        }
        if (z.length == 0) return;
        int keep = 0;
        for (Sleeper s : z) {
            blocked |= s.warp == warp;
            if (s.warp != warp && !footprints.dependent(s.fp)) keep++;
        }
        if (keep == z.length) return;
        if (keep == 0) {
            z = NONE;
            return;
        }
        // Dependence is asked again rather than remembered: sets are a few entries, and no scratch array per step.
        Sleeper[] next = new Sleeper[keep];
        int k = 0;
        for (Sleeper s : z) if (s.warp != warp && !footprints.dependent(s.fp)) next[k++] = s;
        z = next;
    }

    /** Whether the captured step may sleep: one convergence group, no state outside the hook (setmaxnreg), and it changed no other warp's runnability. */
    private boolean qualifies() {
        if (footprints.everything() || !capConvergent) return false;
        for (int w = 0; w < m.warps; w++) if (w != capWarp && m.runMask[w] != capRun[w]) return false;
        return true;
    }

    private int firstLanePc(int w) {
        int run = m.runMask[w];
        return run == 0 ? -1 : m.pc[(w << 5) + Integer.numberOfTrailingZeros(run)];
    }
}
