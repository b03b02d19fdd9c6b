package io.barrierscope.trace;

import io.barrierscope.exec.ExecutionListener;
import io.barrierscope.exec.Interpreter;
import io.barrierscope.exec.Machine;
import io.barrierscope.exec.Outcome;
import io.barrierscope.launch.LaunchedRun;
import java.util.function.BooleanSupplier;

/**
 * A debugging session over one launch that can go backwards, the rr way: the run is recorded as
 * it first executes, checkpoints are kept at intervals (thinned with age), and any earlier state
 * is reached by restoring the nearest checkpoint and re-executing deterministically. Every
 * position is "after N warp steps"; forward and backward moves stop only on whole warp steps.
 * Single-threaded: the owner (the CLI, or the window's worker thread) calls it.
 */
public final class TimeTravel {
    /** Why a move stopped. */
    public enum Reason { STEPPED, BREAKPOINT, BRKPT, FINISHED, STEP_LIMIT, START, CANCELLED }

    /** Where a move stopped and why; {@code hit} for breakpoints. */
    public record Stop(Reason reason, long step, BreakpointSet.Hit hit) {
        @Override
        public String toString() {
            return reason.name().toLowerCase() + " at step " + step + (hit != null ? ": " + hit.description() : "");
        }
    }

    /**
     * Warp steps between the checkpoints taken while recording, for a launch whose state is at
     * most {@link #BYTES_PER_STEP} times this: larger states get a longer interval (see {@link #intervalFor}).
     */
    public static final int INTERVAL = 1 << 16;
    /** The longest interval: re-executing it takes tens of milliseconds. */
    public static final int MAX_INTERVAL = 1 << 20;
    /**
     * Bytes of checkpointed state per warp step of interval. A warp step costs the same whatever
     * the launch's size, but a checkpoint copies the whole state, so a large launch checkpoints
     * less often: one step per 32 bytes keeps copying (about 5 GB/s) near 5% of executing (about
     * 60 ns a step) for any launch, while states up to 2 MiB (most kernels) keep 65,536 steps, so the
     * first reverse step after a long run re-executes at most that (about 10 ms with race detection on).
     */
    static final int BYTES_PER_STEP = 32;
    /** Warp steps between the extra checkpoints a long backward seek leaves near its target. */
    public static final int FINE_INTERVAL = 1 << 12;
    /**
     * How many fine intervals before its target a long seek leaves checkpoints in: enough for a run
     * of reverse steps, few enough that the first one, which takes them, stays short.
     */
    public static final int FINE_SPAN = 4;
    private static final long DEFAULT_BUDGET = Math.min(512L << 20, Runtime.getRuntime().maxMemory() / 4);

    private final LaunchedRun run;
    private final Interpreter x;
    private final Machine m;
    private final Recorder recorder;
    private final BreakpointSet breakpoints;
    private final CheckpointStore checkpoints;
    private final long maxSteps;

    public TimeTravel(LaunchedRun run) { this(run, run.maxSteps(), DEFAULT_BUDGET); }

    public TimeTravel(LaunchedRun run, long maxSteps) { this(run, maxSteps, DEFAULT_BUDGET); }

    public TimeTravel(LaunchedRun run, long maxSteps, long checkpointBudgetBytes) {
        this.run = run;
        this.x = run.interpreter();
        this.m = x.machine();
        if (m.steps != 0) throw new IllegalStateException("time travel starts from a fresh launch");
        this.maxSteps = maxSteps;
        // The summary names the limit in force (the command line's, when it gave one), not the launch file's.
        run.useStepLimit(maxSteps);
        this.recorder = new Recorder(x);
        this.breakpoints = new BreakpointSet(m);
        this.checkpoints = new CheckpointStore(checkpointBudgetBytes);
        x.addListener(new Observer());
        breakpoints.onHit(x::requestBreak);
        breakpoints.onStepsNeeded(x::listenersChanged);
        checkpoints.onDrop(this::dropped);
        Checkpoint first = addCheckpoint();
        // The start has an all-zero register file, which its checkpoint omits: count it as later ones will.
        this.interval = intervalFor(first.bytes() + (first.registersOmitted() ? 8L * m.regs.length : 0));
    }

    /** Records no wgmma events from here on (replaying a trace of format 2 or older: see {@link Recorder#omitTensorCoreEvents}). */
    public void omitTensorCoreEvents() { recorder.omitTensorCoreEvents(); }

    /** Warp steps between the frontier checkpoints (and state hashes) of this session. */
    private final long interval;

    /**
     * The checkpoint interval for a launch whose checkpoints take {@code stateBytes}: at least
     * {@link #INTERVAL}, a power of two (so hashes fall on round steps), at most {@link #MAX_INTERVAL}.
     * Deterministic in the launch, so a replay hashes the same steps.
     */
    static long intervalFor(long stateBytes) {
        long want = Math.max(1, (stateBytes + BYTES_PER_STEP - 1) / BYTES_PER_STEP);
        long p = Long.highestOneBit(want);
        if (p < want) p <<= 1;
        return Math.max(INTERVAL, Math.min(MAX_INTERVAL, p));
    }

    /** Warp steps between the checkpoints this session takes as it first executes (and between its state hashes). */
    public long interval() { return interval; }

    /** The checkpoint of the live state being added to the store (so a drop can come back to it). */
    private Checkpoint adding;

    private Checkpoint addCheckpoint() {
        Checkpoint c = Checkpoint.take(x);
        adding = c;
        try {
            checkpoints.add(c);
        } finally {
            adding = null;
        }
        return c;
    }

    /** The store drops a checkpoint: if its hash is still owed, take it now from its state, then return to the live one. */
    private void dropped(Checkpoint c) {
        if (owed.get(c.step()) != c) return;
        if (adding == null) throw new IllegalStateException("a checkpoint was dropped outside addCheckpoint");
        owed.remove(c.step());
        c.restoreInto(x);
        hashes.put(c.step(), StateHash.of(x));
        adding.restoreInto(x);
    }

    /**
     * The session's one listener: forwards to the recorder and the breakpoints with direct calls,
     * so the interpreter's call sites stay monomorphic (recording must cost little).
     */
    private final class Observer implements ExecutionListener {
        /** Only line breakpoints need warp steps; without them the interpreter calls nobody per step. */
        @Override
        public boolean takesWarpSteps() { return breakpoints.takesWarpSteps(); }

        @Override
        public void warpStep(long step, int warp, int pc, int group, int active) {
            breakpoints.warpStep(step, warp, pc, group, active);
        }

        @Override
        public void syncEvent(long step, io.barrierscope.exec.SyncEvent kind, int slot, long object, long a, long b) {
            recorder.syncEvent(step, kind, slot, object, a, b);
            if (breakpoints.any()) breakpoints.syncEvent(step, kind, slot, object, a, b);
        }

        @Override
        public void statusChange(long step, int warp, int lanes, byte from, byte to) {
            recorder.statusChange(step, warp, lanes, from, to);
            if (to == io.barrierscope.exec.ThreadStatus.PARKED) breakpoints.statusChange(step, warp, lanes, from, to);
        }

        @Override
        public void barrierArriveWait(long step, int warp, int lanes, long object, long generation) {
            recorder.barrierArriveWait(step, warp, lanes, object, generation);
            if (breakpoints.any()) breakpoints.syncEvent(step, io.barrierscope.exec.SyncEvent.BAR_ARRIVE, (warp << 5) + Integer.numberOfTrailingZeros(lanes),
                    object, generation, lanes);
        }

        @Override
        public void barrierCompleteRelease(long step, int firstWarp, long released, long object, long generation) {
            recorder.barrierCompleteRelease(step, firstWarp, released, object, generation);
            if (breakpoints.any()) breakpoints.syncEvent(step, io.barrierscope.exec.SyncEvent.BAR_COMPLETE, -1, object, generation, released);
        }

        @Override
        public void timeJump(long step, long cycles) { recorder.timeJump(step, cycles); }

        @Override
        public void diagnostic(io.barrierscope.diag.Diagnostic d) {
            recorder.diagnostic(d);
            breakpoints.diagnostic(d);
        }

        @Override
        public void printf(long step, int slot, String text) { recorder.printf(step, slot, text); }

        @Override
        public void finished(long step, Outcome outcome) {
            recorder.finished(step, outcome);
            breakpoints.finished(step, outcome);
        }
    }

    public LaunchedRun run() { return run; }
    public Interpreter interpreter() { return x; }
    public Recording recording() { return recorder.recording(); }
    public BreakpointSet breakpoints() { return breakpoints; }
    public CheckpointStore checkpoints() { return checkpoints; }
    /** The warp-step budget: reaching it ends the run with the step-limit outcome. */
    public long maxSteps() { return maxSteps; }

    /** The current position: warp steps executed. */
    public long now() { return m.steps; }

    /** Whether the current state is the end of the run. */
    public boolean atEnd() { return x.finished(); }

    /** The furthest position executed so far. */
    public long frontier() { return recording().steps(); }

    /** The warp that took the step leading to the current position, or -1 at the start. */
    public int lastWarp() { return m.steps == 0 ? -1 : recording().warpOf(m.steps - 1); }

    /** The PC of the step leading to the current position (there is one: not at the start). */
    private int lastPc() { return recording().pcOf(m.steps - 1); }

    // ---- forward ----

    /** One warp step (or, at the last step, settling the run's end). */
    private void warpStep() {
        long s = m.steps;
        if (s >= maxSteps) {
            if (!x.finished()) x.run(maxSteps);
            afterMove();
            return;
        }
        while (m.steps == s && !x.finished()) x.step();
        afterMove();
    }

    /**
     * Runs the interpreter's own loop up to {@code until} steps (no per-step work here, so
     * recording stays cheap); stops early for a break. Returns whether a break stopped it.
     */
    private boolean advanceTo(long until) {
        if (m.steps >= maxSteps) {
            warpStep();
            return false;
        }
        boolean broke = x.advance(Math.min(until, maxSteps));
        if (!broke && !x.finished() && m.steps >= maxSteps) x.run(maxSteps);
        afterMove();
        return broke;
    }

    /** Frontier bookkeeping: a state hash and a checkpoint every {@link #interval} steps first reached, and at the end. */
    private void afterMove() {
        if (m.steps > frontierHashed && m.steps % interval == 0) {
            frontierHashed = m.steps;
            Checkpoint c = checkpoints.at(m.steps);
            owed.put(m.steps, c != null ? c : addCheckpoint());
        }
        if (x.finished() && !endHashed) {
            endHashed = true;
            endOwed = m.steps;
        }
    }

    private static long nextMultiple(long v, long of) { return (v / of + 1) * of; }

    /** The least multiple of {@code of} at or after {@code v} (v >= 0). */
    private static long roundUp(long v, long of) { return (Math.max(0, v) + of - 1) / of * of; }

    /** The furthest step whose state hash is known; hashes are taken the first time a step is reached. */
    private long frontierHashed;
    private boolean endHashed;
    private final java.util.TreeMap<Long, Long> hashes = new java.util.TreeMap<>();
    /**
     * Checkpoints of frontier steps whose hash is not taken yet: hashing the whole state costs
     * several times a checkpoint, and only a trace file needs the hashes, so they are computed
     * from these when asked for (or when the store is about to drop one), not while recording.
     */
    private final java.util.TreeMap<Long, Checkpoint> owed = new java.util.TreeMap<>();
    /**
     * The end of the run, when its hash is owed (else -1). No checkpoint is kept for it: the end is
     * hashed where it is reached again, by re-executing from the last checkpoint, if the session
     * is not there when the hashes are asked for.
     */
    private long endOwed = -1;

    /**
     * State hashes at steps first reached by this session (every {@link #interval()} steps, and the
     * end): a trace file stores them so that re-executing it elsewhere can prove it reproduces.
     */
    public java.util.SortedMap<Long, Long> stateHashes() {
        if (endOwed >= 0 && x.finished() && m.steps == endOwed) {
            hashes.put(endOwed, StateHash.of(x));
            endOwed = -1;
        }
        if (!owed.isEmpty() || endOwed >= 0) {
            // Visit each owed state by restoring its checkpoint (or re-executing to the end), then come back here exactly.
            long at = m.steps;
            Checkpoint here = Checkpoint.take(x);
            for (Checkpoint c : owed.values()) {
                c.restoreInto(x);
                hashes.put(c.step(), StateHash.of(x));
            }
            owed.clear();
            if (endOwed >= 0) {
                seekQuietly(endOwed);
                if (!x.finished() || m.steps != endOwed) throw new IllegalStateException("re-execution did not reach the end at step " + endOwed);
                hashes.put(endOwed, StateHash.of(x));
                endOwed = -1;
            }
            here.restoreInto(x);
            checkpoints.focus(at);
        }
        return java.util.Collections.unmodifiableSortedMap(hashes);
    }

    /**
     * The state hash after {@code step} warp steps (not beyond the frontier), whether or not this
     * session hashes that step itself (a trace written with another checkpoint interval lists other
     * steps); the session stays where it is.
     */
    public long stateHashAt(long step) {
        if (step < 0 || step > frontier()) throw new IllegalArgumentException("step " + step + " is outside 0.." + frontier());
        Long known = stateHashes().get(step);
        if (known != null) return known;
        long at = m.steps;
        Checkpoint here = Checkpoint.take(x);
        seekQuietly(step);
        long h = StateHash.of(x);
        here.restoreInto(x);
        checkpoints.focus(at);
        return h;
    }

    /**
     * Executes forward to step {@code steps} and, if {@code toEnd}, settles the run's end there, e.g.
     * to replay a trace. Never runs past {@code steps} warp steps (a trace that claims its run ended
     * there while the kernel goes on must not make the replay run forever); the caller compares.
     */
    public void replayTo(long steps, boolean toEnd) { replayTo(steps, toEnd, io.barrierscope.ptx.Cancellation.NONE); }

    /**
     * As {@link #replayTo(long, boolean)}, telling {@code cancel} the step reached every {@link #CHUNK}
     * warp steps ("replay", of {@code steps}); a cancel throws {@link io.barrierscope.ptx.Cancellation.Cancelled}
     * there, leaving the session wherever it got to (the window drops it).
     */
    public void replayTo(long steps, boolean toEnd, io.barrierscope.ptx.Cancellation cancel) {
        breakpoints.mute(true);
        try {
            while (m.steps < steps && !x.finished()) {
                warpStep();
                if ((m.steps & (CHUNK - 1)) == 0) cancel.progress("replay", m.steps, steps);
            }
            while (toEnd && !x.finished() && m.steps <= steps) {
                if (m.steps >= maxSteps) {
                    x.run(maxSteps); // the step budget ends the run here, as it did when recorded
                    break;
                }
                x.step();
            }
            if (toEnd && !endHashed && x.finished()) {
                endHashed = true;
                hashes.put(m.steps, StateHash.of(x));
            }
        } finally {
            breakpoints.mute(false);
            breakpoints.takePending();
        }
    }

    private Stop stopAfterStep() {
        BreakpointSet.Hit h = breakpoints.takePending();
        if (h != null) {
            breakpoints.rollBackFrom(h.stopStep());
            if (h.stopStep() < m.steps) seekQuietly(h.stopStep());
            return new Stop(Reason.BREAKPOINT, m.steps, h);
        }
        if (x.finished()) return new Stop(x.outcome() == Outcome.STEP_LIMIT ? Reason.STEP_LIMIT : Reason.FINISHED, m.steps, null);
        return null;
    }

    /** One warp step forward. */
    public Stop step() {
        if (x.finished()) return new Stop(Reason.FINISHED, m.steps, null);
        breakpoints.leaving(m.steps);
        warpStep();
        Stop s = stopAfterStep();
        return s != null ? s : new Stop(Reason.STEPPED, m.steps, null);
    }

    /** Runs forward until a breakpoint, the end, or {@code cancel} says stop (checked every few thousand steps). */
    public Stop runForward(BooleanSupplier cancel) {
        breakpoints.takePending();
        x.clearBreak();
        breakpoints.leaving(m.steps);
        while (!x.finished()) {
            boolean broke = advanceTo(Math.min(nextMultiple(m.steps, interval), m.steps + CHUNK));
            BreakpointSet.Hit h = breakpoints.peekPending();
            // A break can come between warp steps (a copy landing); finish the step the hit belongs to.
            if (h != null) while (m.steps < h.stopStep() && !x.finished()) warpStep();
            Stop s = stopAfterStep();
            if (s != null) return s;
            if (broke) return new Stop(Reason.BRKPT, m.steps, null);
            if (cancel.getAsBoolean()) return new Stop(Reason.CANCELLED, m.steps, null);
        }
        return new Stop(Reason.FINISHED, m.steps, null);
    }

    /**
     * As {@link #runForward}, going on past a {@code brkpt} (docs/semantics.md: {@code run} and recording
     * continue past it; only the window stops there): until a breakpoint, the end, or {@code cancel}.
     * Stopping at a brkpt, {@code run --trace} wrote a trace cut there and ended "running" (exit 1).
     */
    public Stop runForwardPastBrkpts(BooleanSupplier cancel) {
        Stop s = runForward(cancel);
        while (s.reason() == Reason.BRKPT) s = runForward(cancel);
        return s;
    }

    /**
     * Warp steps run between checks for cancellation: a Pause must take effect within about a
     * tenth of a second, and a warp step of a launch of tens of thousands of threads costs tens
     * of microseconds (a check costs a volatile read).
     */
    public static final int CHUNK = 1 << 9;

    /** Runs forward until warp {@code warp} has taken a step (a breakpoint or the end may stop it first). */
    public Stop stepWarp(int warp) {
        breakpoints.leaving(m.steps);
        while (!x.finished()) {
            long s0 = m.steps;
            warpStep();
            Stop s = stopAfterStep();
            if (s != null) return s;
            if (m.steps > s0 && lastWarp() == warp) return new Stop(Reason.STEPPED, m.steps, null);
        }
        return new Stop(Reason.FINISHED, m.steps, null);
    }

    /**
     * Steps warp {@code warp} over its next instruction even if that waits (a barrier, an mbarrier
     * wait): runs until the warp executes an instruction at another PC.
     */
    public Stop stepOver(int warp) {
        Stop s = stepWarp(warp);
        if (s.reason() != Reason.STEPPED) return s;
        int pc = lastPc();
        while (!x.finished()) {
            if (firstLivePc(warp) != pc) return new Stop(Reason.STEPPED, m.steps, null);
            s = stepWarp(warp);
            if (s.reason() != Reason.STEPPED) return s;
        }
        return new Stop(Reason.FINISHED, m.steps, null);
    }

    private int firstLivePc(int warp) {
        int live = m.liveMask[warp];
        return live == 0 ? -1 : m.pc[(warp << 5) + Integer.numberOfTrailingZeros(live)];
    }

    // ---- backward ----

    /** Goes to the state after {@code step} warp steps (clamped to the run), re-executing from a checkpoint. */
    public Stop seek(long step) {
        seekQuietly(step);
        if (x.finished() && m.steps == frontier()) return new Stop(Reason.FINISHED, m.steps, null);
        return new Stop(m.steps == 0 ? Reason.START : Reason.STEPPED, m.steps, null);
    }

    private void seekQuietly(long target) {
        long t = Math.max(0, target);
        if (recording().finished()) t = Math.min(t, frontier());
        checkpoints.focus(t);
        breakpoints.mute(true);
        try {
            if (t < m.steps || (t == m.steps && x.finished() && t < frontier())) {
                Checkpoint c = checkpoints.floor(t);
                c.restoreInto(x);
            } else {
                Checkpoint c = checkpoints.floor(t);
                if (c.step() > m.steps) c.restoreInto(x);
            }
            long from = m.steps;
            // A long seek leaves finer checkpoints in the last stretch before its target (the next
            // moves, reverse steps above all, are likely nearby): it stops at each fine multiple there.
            long fineFrom = t - from > FINE_INTERVAL ? t - (long) FINE_SPAN * FINE_INTERVAL : Long.MAX_VALUE;
            while (m.steps < t && !x.finished()) {
                long until = Math.min(t, nextMultiple(m.steps, interval));
                if (fineFrom != Long.MAX_VALUE) {
                    long nextFine = m.steps < fineFrom ? roundUp(fineFrom, FINE_INTERVAL) : nextMultiple(m.steps, FINE_INTERVAL);
                    until = Math.min(until, Math.max(nextFine, m.steps + 1));
                }
                advanceTo(until);
                if (m.steps < until && !x.finished()) warpStep(); // a brkpt does not stop a seek
                if (t - from > FINE_INTERVAL && m.steps % FINE_INTERVAL == 0 && t - m.steps < (long) FINE_SPAN * FINE_INTERVAL
                        && !checkpoints.has(m.steps)) {
                    addCheckpoint();
                }
            }
            // The end of a run is settled after its last warp step; reaching the last step means reaching the end.
            if (recording().finished() && m.steps == frontier()) {
                while (!x.finished()) x.step();
            }
        } finally {
            breakpoints.mute(false);
            breakpoints.takePending();
        }
    }

    /** One warp step back. */
    public Stop stepBack() {
        if (m.steps == 0) return new Stop(Reason.START, 0, null);
        return seek(m.steps - 1);
    }

    /** Back to the state before warp {@code warp} took its previous step. */
    public Stop stepBackWarp(int warp) {
        long target = previousStepOf(warp, m.steps, false);
        return target < 0 ? seek(0) : seek(target);
    }

    /** Back over the last waiting instruction (barrier, mbarrier wait) warp {@code warp} executed: to the state before it. */
    public Stop stepBackOver(int warp) {
        long target = previousStepOf(warp, m.steps, true);
        return target < 0 ? seek(0) : seek(target);
    }

    /** Runs backwards to the previous breakpoint hit, or to the start. */
    public Stop reverseContinue() {
        BreakpointSet.Hit h = breakpoints.previousHit(recording(), m.steps);
        if (h == null) {
            seekQuietly(0);
            return new Stop(Reason.START, 0, null);
        }
        seekQuietly(h.stopStep());
        return new Stop(Reason.BREAKPOINT, m.steps, h);
    }

    /** The label of the last warp step of {@code warp} before {@code before} (optionally a synchronizing one), or -1. */
    private long previousStepOf(int warp, long before, boolean synchronizing) {
        Recording r = recording();
        for (long block = Math.min(before, r.steps()) / Recording.BLOCK; block >= 0; block--) {
            long found = -1;
            EventCursor c = r.cursor(block * Recording.BLOCK);
            long end = (block + 1) * Recording.BLOCK;
            while (c.next() && c.step < end) {
                if (c.type == EventCursor.Type.WARP_STEP && c.warp == warp && c.step < before
                        && (!synchronizing || x.op(c.pc).isSynchronizing())) {
                    found = c.step;
                }
            }
            if (found >= 0) return found;
        }
        return -1;
    }
}
