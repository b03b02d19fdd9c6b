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
        /** Bounded: whether the run's own step may sleep in this decision's forks (see {@link #bounded}). */
        boolean ownMaySleep = true;
        private final boolean bounded;

        Point(Sleeper[] sleep, boolean bounded) {
            this.sleep = sleep;
            this.bounded = bounded;
        }

        /**
         * The set a fork made here starts with: warp forks add the run's own step and earlier
         * siblings' (bounded: the run's own step alone, when it may sleep).
         */
        Sleeper[] forChild(boolean warpFork) {
            if (!warpFork) return sleep;
            List<Sleeper> out = new ArrayList<>(Arrays.asList(sleep));
            if (chosen != null && (!bounded || ownMaySleep)) out.add(chosen);
            if (!bounded) out.addAll(siblings);
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

    /**
     * The rule sound within the deviation bound (docs/explore.md, "Sleep sets within the bound"):
     * only the run's own (default) step sleeps, in the forks of a decision where the warp that ran
     * before cannot go on or could keep running; forks to a sleeping warp are made; and a sleeping
     * warp that steps cuts the run only once it has run on by default until it blocked or exited
     * (not cut off by its fair streak, no alternative of another kind on the way), when the warp that
     * ran before it could not go on. Each cut schedule then has an equivalent that moves the sleeping
     * step back to its decision at no more non-default decisions.
     */
    final boolean bounded;
    /** Bounded: the sleeping warp that stepped and is running on (its cut not decided yet), or -1. */
    private int pending = -1;
    /** Bounded: the policy's decision count when {@link #pending} began; decisions from it on are dropped if the run is cut. */
    long pendingFrom = -1;
    /** Before the step: the warp that ran last and whether it was runnable, whether the pending warp was, and the decision count. */
    private int prevWarp = -1;
    private boolean prevRunnable;
    private boolean pendingRunnable;
    private long decisionsBefore;

    SleepSet(Interpreter x, StepFootprints footprints, Sleeper[] initial) { this(x, footprints, initial, false); }

    SleepSet(Interpreter x, StepFootprints footprints, Sleeper[] initial, boolean bounded) {
        this.x = x;
        this.m = x.machine();
        this.footprints = footprints;
        this.z = initial;
        this.bounded = bounded;
    }

    /** Before each step: a copy landing or a sleeper waking at its start is no step's to reorder. */
    void beforeStep() {
        if (z.length > 0 && (m.cycles >= x.nextWake() || m.cycles >= m.async.nextReady())) z = NONE;
        if (bounded && x.policy() instanceof SchedulePolicy sp) {
            prevWarp = sp.currentWarp();
            prevRunnable = prevWarp >= 0 && m.runMask[prevWarp] != 0;
            pendingRunnable = pending >= 0 && m.runMask[pending] != 0;
            decisionsBefore = sp.decisions();
        }
        footprints.begin();
    }

    /** Whether no warp is asleep (nor a cut pending). */
    boolean empty() { return z.length == 0 && pending < 0; }

    /** Whether warp {@code w} is asleep (its next step is still the one put to sleep). */
    boolean asleep(int w) {
        int pc = firstLanePc(w);
        for (Sleeper s : z) if (s.warp == w && s.pc == pc) return true;
        return false;
    }

    /** A decision with alternatives: its point (the set now); for a warp decision, notes the chosen warp's step. */
    Point point(boolean warpDecision, int chosen) {
        Point p = new Point(z, bounded);
        if (bounded && warpDecision && x.policy() instanceof SchedulePolicy sp) {
            // A warp that could go on but used up its fair streak is a fork whose own streak the swap would reset.
            int cur = sp.currentWarp();
            p.ownMaySleep = sp.preemptible() || cur < 0 || m.runMask[cur] == 0;
        }
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
        if (bounded) boundedCut(warp);
        if (z.length == 0) return;
        int keep = 0;
        for (Sleeper s : z) {
            if (s.warp == warp && !bounded) blocked = true;
            if (s.warp == warp && bounded && pending < 0 && !blocked) startPending(warp);
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

    /**
     * Bounded: a step by another warp than the pending one ends its run on: cut when it could not go
     * on (it blocked or exited), not when it was switched away from while runnable (its fair streak:
     * the swap would shift the streak). An alternative of another kind on the way also keeps the run.
     */
    private void boundedCut(int warp) {
        if (pending < 0) return;
        if (otherKindDecided()) {
            pending = -1;
        } else if (warp != pending) {
            if (pendingRunnable) pending = -1;
            else blocked = true;
        }
    }

    /** Bounded: sleeping warp {@code w} stepped; a cut is considered only where the warp before it could not go on. */
    private void startPending(int w) {
        // Its own run on, or a preemption or the fair streak of a warp before it that could go on: no cut.
        if (prevWarp == w || prevRunnable) return;
        if (otherKindDecided()) return; // its step took an alternative of another kind (a try_wait), or could have
        pending = w;
        pendingFrom = ((SchedulePolicy) x.policy()).decisions();
    }

    /** Whether the last step took a decision other than a warp decision. */
    private boolean otherKindDecided() {
        SchedulePolicy sp = (SchedulePolicy) x.policy();
        long taken = sp.decisions() - decisionsBefore;
        long warpDecisions = sp.lastWarpPoint() >= decisionsBefore ? 1 : 0;
        return taken > warpDecisions;
    }

    /** Bounded: the run ended with a cut pending: its warp ran on to the run's end, so it is cut. */
    void runEnded() {
        if (pending >= 0) blocked = true;
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
