package io.barrierscope.exec;

import io.barrierscope.diag.BarrierRef;
import io.barrierscope.diag.CudaLoc;
import io.barrierscope.diag.Diagnostic;
import io.barrierscope.diag.DiagnosticCode;
import io.barrierscope.diag.Severity;
import io.barrierscope.diag.SourcePos;
import io.barrierscope.ptx.Instruction;
import io.barrierscope.sync.CtaBarrierSync;
import io.barrierscope.sync.WarpSync;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs a {@link Machine} one warp step at a time: the policy picks a warp and one of its
 * convergence groups (lanes sharing a PC), the op executes for the lanes whose guard holds.
 * No threads, no wall clock, no unordered iteration: same machine + policy + seed, same run.
 */
public final class Interpreter {
    private final Machine m;
    private final Op[] code;
    private final Policy policy;
    private final List<ExecutionListener> listeners = new ArrayList<>();
    private final List<Diagnostic> diagnostics = new ArrayList<>();
    private final List<PrintfLine> printf = new ArrayList<>();
    private Outcome outcome = Outcome.RUNNING;
    /**
     * The warp step events belong to: the index of the step being taken, from the start of the
     * {@link #step} call that takes it (async completions and wake-ups before it included), so the
     * state after N steps holds exactly the events labelled below N.
     */
    private long eventStep;
    private long nextWake = Long.MAX_VALUE;
    private boolean breakRequested;

    public Interpreter(Machine machine, Policy policy) {
        this.m = machine;
        this.code = machine.program.code;
        this.policy = policy;
    }

    public Machine machine() { return m; }
    public Policy policy() { return policy; }
    public Outcome outcome() { return outcome; }
    public List<Diagnostic> diagnostics() { return diagnostics; }
    public List<PrintfLine> printfLines() { return printf; }
    public void addListener(ExecutionListener l) {
        listeners.add(l);
        listenersChanged();
    }

    public void removeListener(ExecutionListener l) {
        listeners.remove(l);
        listenersChanged();
    }

    /** The listeners, as an array for the hot event loops. */
    private ExecutionListener[] all = new ExecutionListener[0];

    /** The listeners that take warp steps (see {@link ExecutionListener#takesWarpSteps}). */
    private ExecutionListener[] stepListeners = new ExecutionListener[0];

    /**
     * Re-reads which listeners take warp steps; a listener whose answer changed calls it. Status
     * changes are the most frequent event after steps (every warp of a barrier, twice per
     * generation): with one listener they go straight to it rather than through the loop.
     */
    public void listenersChanged() {
        List<ExecutionListener> steps = new ArrayList<>();
        for (ExecutionListener l : listeners) if (l.takesWarpSteps()) steps.add(l);
        stepListeners = steps.toArray(new ExecutionListener[0]);
        all = listeners.toArray(new ExecutionListener[0]);
        if (listeners.isEmpty()) {
            m.statusObserver = null;
        } else if (listeners.size() == 1) {
            ExecutionListener only = listeners.get(0);
            m.statusObserver = (warp, lanes, from, to) -> only.statusChange(eventStep, warp, lanes, from, to);
        } else {
            m.statusObserver = this::statusChanged;
        }
    }

    private void statusChanged(int warp, int lanes, byte from, byte to) {
        long step = eventStep;
        for (int i = 0, n = listeners.size(); i < n; i++) listeners.get(i).statusChange(step, warp, lanes, from, to);
    }

    /** Tells the listeners of a synchronization event (see {@link SyncEvent}). */
    public void emit(SyncEvent kind, int slot, long object, long a, long b) {
        if (listeners.isEmpty()) return;
        long step = eventStep;
        m.flushStatus();
        for (ExecutionListener l : all) l.syncEvent(step, kind, slot, object, a, b);
    }

    /** Tells the listeners of a CTA barrier arrival whose status change was not told (see {@link ExecutionListener#barrierArriveWait}). */
    public void emitArriveWait(int warp, int lanes, long object, long generation) {
        long step = eventStep;
        m.flushStatus();
        for (ExecutionListener l : all) l.barrierArriveWait(step, warp, lanes, object, generation);
    }

    /** Tells the listeners of a generation completing that released whole warps (see {@link ExecutionListener#barrierCompleteRelease}). */
    public void emitCompleteRelease(int firstWarp, long released, long object, long generation) {
        long step = eventStep;
        m.flushStatus();
        for (ExecutionListener l : all) l.barrierCompleteRelease(step, firstWarp, released, object, generation);
    }

    /** The warp step events (and accesses) belong to now. */
    public long eventStep() { return eventStep; }

    /** Virtual time of the earliest sleeper's or suspended waiter's wake-up, or Long.MAX_VALUE. */
    public long nextWake() { return nextWake; }

    /**
     * The whole run state for a checkpoint (opaque): the machine's, the policy's and the
     * interpreter's own. Diagnostics and printf lines are immutable, so their lists are kept by
     * reference to the entries.
     */
    public static final class Saved {
        private final Machine.Saved machine;
        private final Class<?> policyClass;
        private final long[] policy;
        private final Outcome outcome;
        private final long eventStep;
        private final long nextWake;
        private final boolean breakRequested;
        private final Diagnostic[] diagnostics;
        private final PrintfLine[] printf;

        private Saved(Interpreter x) {
            machine = x.m.save();
            policyClass = x.policy.getClass();
            policy = x.policy.saveState();
            outcome = x.outcome;
            eventStep = x.eventStep;
            nextWake = x.nextWake;
            breakRequested = x.breakRequested;
            diagnostics = x.diagnostics.toArray(new Diagnostic[0]);
            printf = x.printf.toArray(new PrintfLine[0]);
        }

        public Machine.Saved machine() { return machine; }

        /** Approximate heap bytes (diagnostics and printf lines counted roughly, they may be shared). */
        public long bytes() { return 128 + 8L * policy.length + 300L * diagnostics.length + 100L * printf.length + machine.bytes(); }
    }

    public Saved save() { return new Saved(this); }

    /**
     * Puts the run back into the state of {@link #save}, in place; listeners stay attached and are
     * not told (the caller knows it travelled in time). Everything is checked before anything changes.
     */
    public void restore(Saved s) {
        if (s.policyClass != policy.getClass()) {
            throw new IllegalArgumentException("the checkpoint is of a run under another policy (" + s.policyClass.getSimpleName() + ")");
        }
        m.restore(s.machine);
        policy.restoreState(s.policy);
        outcome = s.outcome;
        eventStep = s.eventStep;
        nextWake = s.nextWake;
        breakRequested = s.breakRequested;
        restoreList(diagnostics, s.diagnostics);
        restoreList(printf, s.printf);
    }

    /** Truncates when the list still starts with the saved entries (the usual reverse step), else refills it. */
    private static <T> void restoreList(List<T> list, T[] saved) {
        boolean prefix = list.size() >= saved.length;
        for (int i = 0; prefix && i < saved.length; i++) prefix = list.get(i) == saved[i];
        if (prefix) {
            list.subList(saved.length, list.size()).clear();
        } else {
            list.clear();
            list.addAll(java.util.Arrays.asList(saved));
        }
    }

    private StepLog stepLog;

    /**
     * Logs every warp step into {@code log} (null to stop), as well as telling the listeners that
     * take steps: the recorder's way of taking every step without a call per step.
     */
    public void logSteps(StepLog log) { stepLog = log; }

    /** Whether anyone listens (so callers can skip building an event's arguments). */
    public boolean observed() { return !listeners.isEmpty(); }
    public List<ExecutionListener> listeners() { return listeners; }
    public boolean finished() { return outcome != Outcome.RUNNING; }

    /** Runs until the run ends, {@code maxSteps} warp steps have executed in total, or a brkpt. */
    public Outcome run(long maxSteps) {
        while (outcome == Outcome.RUNNING && !breakRequested) {
            if (m.steps >= maxSteps) {
                eventStep = m.steps;
                end(Outcome.STEP_LIMIT);
                break;
            }
            stepOnce();
        }
        breakRequested = false;
        return outcome;
    }

    /**
     * Runs until {@code steps} warp steps have executed in total, the run ends, or a break is
     * requested (a brkpt, or a listener such as a breakpoint); unlike {@link #run} reaching the
     * count is not the step limit. Returns whether it stopped for a break.
     */
    public boolean advance(long steps) {
        while (outcome == Outcome.RUNNING && !breakRequested && m.steps < steps) stepOnce();
        boolean broke = breakRequested;
        breakRequested = false;
        return broke;
    }

    /** Executes one warp step (or settles the run's end); returns false once the run has ended. */
    public boolean step() { return stepOnce(); }

    private boolean stepOnce() {
        if (outcome != Outcome.RUNNING) return false;
        // A single step is its own pause: a brkpt met earlier must not stop the next run at once.
        breakRequested = false;
        eventStep = m.steps;
        if (m.cycles >= nextWake) wakeSleepers();
        long writes = m.memory.writes;
        if (m.cycles >= m.async.nextReady()) {
            io.barrierscope.sync.AsyncCopySync.completeReady(this);
            if (outcome != Outcome.RUNNING) {
                tellFinished();
                return false;
            }
            // A copy that landed may be what a parked poller's loop reads.
            if (m.memory.writes != writes) io.barrierscope.sync.MbarrierSync.memoryWritten(this);
            writes = m.memory.writes;
        }
        int w = policy.pickWarp(this);
        if (w < 0) {
            // Nothing can run: jump virtual time to the next wake-up or copy completion, if any.
            long next = Math.min(nextWake, m.async.nextReady());
            if (next != Long.MAX_VALUE) {
                m.cycles = Math.max(m.cycles, next);
                m.flushStatus();
                for (int i = 0, n = listeners.size(); i < n; i++) listeners.get(i).timeJump(eventStep, m.cycles);
                if (m.cycles >= nextWake) wakeSleepers();
                m.flushStatus();
                return true;
            }
            end(m.allExited() ? Outcome.COMPLETED : Outcome.DEADLOCK);
            return false;
        }
        int group = policy.pickGroup(this, w);
        int lane = Integer.numberOfTrailingZeros(group);
        int pc = m.pc[(w << 5) + lane];
        Op op = code[pc];
        int active = group;
        if (op.guardReg >= 0) active = guardMask(op, w, group);
        long step = m.steps;
        m.steps++;
        m.cycles++;
        m.threadInstructions += Integer.bitCount(active);
        if (active != 0 && m.wgmma.tracking) m.wgmma.beforeOp(this, w, op);
        try {
            op.execute(this, w, group, active);
        } catch (MemoryFault f) {
            int slot = (w << 5) + Integer.numberOfTrailingZeros(active == 0 ? group : active);
            report(f.code(), f.getMessage(), new int[] {pc}, new int[] {slot}, null);
        } catch (ArithmeticException e) {
            int slot = (w << 5) + lane;
            report(DiagnosticCode.DIVIDE_BY_ZERO, "integer division by zero", new int[] {pc}, new int[] {slot}, null);
        }
        if (m.memory.writes != writes && outcome == Outcome.RUNNING) io.barrierscope.sync.MbarrierSync.memoryWritten(this);
        m.flushStatus();
        StepLog log = stepLog;
        if (log != null) {
            // StepLog's fast path, inline: a whole-warp step is one word (see StepLog#cur).
            int p = log.pos;
            if (step == log.base + p && p < log.end && (group & active) == -1) {
                log.cur[p] = (w << log.pcBits) | pc;
                log.pos = p + 1;
            } else {
                log.add(step, w, pc, group, active);
            }
        }
        ExecutionListener[] sl = stepListeners;
        for (int i = 0; i < sl.length; i++) sl[i].warpStep(step, w, pc, group, active);
        if (outcome == Outcome.RUNNING && m.allExited() && m.async.isEmpty()) end(Outcome.COMPLETED);
        else if (outcome != Outcome.RUNNING) tellFinished();
        return outcome == Outcome.RUNNING;
    }

    private void end(Outcome o) {
        outcome = o;
        tellFinished();
    }

    private void tellFinished() {
        m.flushStatus();
        for (int i = 0, n = listeners.size(); i < n; i++) listeners.get(i).finished(eventStep, outcome);
    }

    private int guardMask(Op op, int w, int group) {
        int base = w << 5;
        int g0 = m.regIndex(base, op.guardReg);
        long want = op.guardNegated ? 0 : 1;
        int active = 0;
        if (group == -1) {
            // A full warp: the 32 predicate registers are adjacent.
            for (int l = 0; l < 32; l++) active |= (m.regs[g0 + l] == want ? 1 : 0) << l;
            return active;
        }
        for (int g = group; g != 0; g &= g - 1) {
            int l = Integer.numberOfTrailingZeros(g);
            if (m.regs[g0 + l] == want) active |= 1 << l;
        }
        return active;
    }

    /** Puts a thread to sleep until virtual time {@code until}. */
    public void sleep(int slot, long until) { suspend(slot, until, ThreadStatus.SLEEPING); }

    /** Suspends a thread until virtual time {@code until} (SLEEPING, or MBAR_WAIT with a time limit). */
    public void suspend(int slot, long until, byte status) {
        m.wakeTime[slot] = until;
        m.setStatus(slot, status);
        if (until < nextWake) nextWake = until;
    }

    private void wakeSleepers() {
        long next = Long.MAX_VALUE;
        for (int s = 0; s < m.slots; s++) {
            byte st = m.status[s];
            if (st != ThreadStatus.SLEEPING && st != ThreadStatus.MBAR_WAIT) continue;
            if (m.wakeTime[s] <= m.cycles) {
                if (st == ThreadStatus.MBAR_WAIT) {
                    io.barrierscope.sync.MbarrierSync.timeout(this, s);
                    continue;
                }
                m.pc[s]++;
                m.uniform[s >> 5] = false;
                m.setStatus(s, ThreadStatus.RUNNABLE);
            } else if (m.wakeTime[s] < next) {
                next = m.wakeTime[s];
            }
        }
        nextWake = next;
    }

    /** Exits the lanes of {@code mask} in {@code warp}, then re-checks what they could have been blocking. */
    public void exit(int warp, int mask) {
        int base = warp << 5;
        int cta = m.ctaOfWarp(warp);
        boolean ctaWasLive = !m.memory.ctaExited[cta];
        for (int a = mask; a != 0; a &= a - 1) {
            int s = base + Integer.numberOfTrailingZeros(a);
            m.setStatus(s, ThreadStatus.EXITED);
        }
        if (ctaWasLive && m.memory.ctaExited[cta] && !m.async.isEmpty()) io.barrierscope.sync.AsyncCopySync.onCtaExit(this, cta);
        if (finished()) return;
        CtaBarrierSync.onExit(this, warp);
        if (!finished()) io.barrierscope.sync.ClusterBarrierSync.onExit(this, warp, mask);
        WarpSync.onExit(this, warp, mask);
        if (!finished()) WgmmaGroupOp.onExit(this, warp, mask);
        if (!finished()) SetmaxnregOp.onExit(this, warp, mask);
        if (!finished() && m.wgmma.tracking) m.wgmma.onExit(this, warp);
    }

    /** Forgets a break request not yet acted on (a new move starts). */
    public void clearBreak() { breakRequested = false; }

    /** Stops the run at the next opportunity, as {@code brkpt} does. */
    public void requestBreak() { breakRequested = true; }

    /** Records device printf output. */
    public void printf(int slot, String text) {
        printf.add(new PrintfLine(eventStep, slot, m.threadName(slot), text));
        m.flushStatus();
        for (ExecutionListener l : listeners) l.printf(eventStep, slot, text);
    }

    /** Reports an error diagnostic, which stops the run. */
    public void report(DiagnosticCode code, String message, int[] pcs, int[] slots, BarrierRef barrier) {
        report(code, Severity.ERROR, message, pcs, slots, barrier);
    }

    public void report(DiagnosticCode code, Severity severity, String message, int[] pcs, int[] slots, BarrierRef barrier) {
        List<SourcePos> ptx = new ArrayList<>();
        List<CudaLoc> cuda = new ArrayList<>();
        for (int pc : pcs) {
            Instruction in = this.code[pc].insn;
            ptx.add(in.pos());
            if (in.loc() != null) cuda.add(in.loc());
        }
        List<Integer> threads = new ArrayList<>();
        for (int s : slots) threads.add(s);
        Diagnostic d = new Diagnostic(code, severity, message, eventStep, ptx, cuda, threads, barrier);
        diagnostics.add(d);
        m.flushStatus();
        for (ExecutionListener l : listeners) l.diagnostic(d);
        if (severity == Severity.ERROR && outcome == Outcome.RUNNING) outcome = Outcome.DIAGNOSED;
    }

    /** Describes where an op is, e.g. {@code kernel.ptx:41 (kernel.cu:17)}. */
    public String where(int pc) {
        Instruction in = code[pc].insn;
        return "line " + in.pos().line() + (in.loc() != null ? " (" + in.loc() + ")" : "");
    }

    public Op op(int pc) { return code[pc]; }
}
