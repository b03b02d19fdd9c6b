package io.barrierscope.exec;

import io.barrierscope.check.Diagnostic;
import io.barrierscope.check.DiagnosticCode;
import io.barrierscope.check.Severity;
import io.barrierscope.ptx.CudaLoc;
import io.barrierscope.ptx.Instruction;
import io.barrierscope.ptx.SourcePos;
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
        m.statusObserver = this::statusChanged;
    }

    public void removeListener(ExecutionListener l) {
        listeners.remove(l);
        if (listeners.isEmpty()) m.statusObserver = null;
    }

    private void statusChanged(int slot, byte from, byte to) {
        long step = Math.max(0, m.steps - 1);
        for (int i = 0, n = listeners.size(); i < n; i++) listeners.get(i).statusChange(step, slot, from, to);
    }

    /** Tells the listeners of a synchronization event (see {@link SyncEvent}). */
    public void emit(SyncEvent kind, int slot, long object, long a, long b) {
        if (listeners.isEmpty()) return;
        long step = Math.max(0, m.steps - 1);
        for (int i = 0, n = listeners.size(); i < n; i++) listeners.get(i).syncEvent(step, kind, slot, object, a, b);
    }

    /** Whether anyone listens (so callers can skip building an event's arguments). */
    public boolean observed() { return !listeners.isEmpty(); }
    public List<ExecutionListener> listeners() { return listeners; }
    public boolean finished() { return outcome != Outcome.RUNNING; }

    /** Runs until the run ends, {@code maxSteps} warp steps have executed in total, or a brkpt. */
    public Outcome run(long maxSteps) {
        while (outcome == Outcome.RUNNING && !breakRequested) {
            if (m.steps >= maxSteps) {
                end(Outcome.STEP_LIMIT);
                break;
            }
            step();
        }
        breakRequested = false;
        return outcome;
    }

    /** Executes one warp step (or settles the run's end); returns false once the run has ended. */
    public boolean step() {
        if (outcome != Outcome.RUNNING) return false;
        // A single step is its own pause: a brkpt met earlier must not stop the next run at once.
        breakRequested = false;
        if (m.cycles >= nextWake) wakeSleepers();
        if (m.cycles >= m.async.nextReady()) {
            io.barrierscope.sync.AsyncCopySync.completeReady(this);
            if (outcome != Outcome.RUNNING) {
                tellFinished();
                return false;
            }
        }
        int w = policy.pickWarp(this);
        if (w < 0) {
            // Nothing can run: jump virtual time to the next wake-up or copy completion, if any.
            long next = Math.min(nextWake, m.async.nextReady());
            if (next != Long.MAX_VALUE) {
                m.cycles = Math.max(m.cycles, next);
                for (int i = 0, n = listeners.size(); i < n; i++) listeners.get(i).timeJump(Math.max(0, m.steps - 1), m.cycles);
                if (m.cycles >= nextWake) wakeSleepers();
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
        try {
            op.execute(this, w, group, active);
        } catch (MemoryFault f) {
            int slot = (w << 5) + Integer.numberOfTrailingZeros(active == 0 ? group : active);
            report(f.code(), f.getMessage(), new int[] {pc}, new int[] {slot}, null);
        } catch (ArithmeticException e) {
            int slot = (w << 5) + lane;
            report(DiagnosticCode.DIVIDE_BY_ZERO, "integer division by zero", new int[] {pc}, new int[] {slot}, null);
        }
        for (int i = 0, n = listeners.size(); i < n; i++) listeners.get(i).warpStep(step, w, pc, group, active);
        if (outcome == Outcome.RUNNING && m.allExited() && m.async.isEmpty()) end(Outcome.COMPLETED);
        else if (outcome != Outcome.RUNNING) tellFinished();
        return outcome == Outcome.RUNNING;
    }

    private void end(Outcome o) {
        outcome = o;
        tellFinished();
    }

    private void tellFinished() {
        for (int i = 0, n = listeners.size(); i < n; i++) listeners.get(i).finished(Math.max(0, m.steps - 1), outcome);
    }

    private int guardMask(Op op, int w, int group) {
        int base = w << 5;
        int g0 = m.regIndex(base, op.guardReg);
        long want = op.guardNegated ? 0 : 1;
        int active = 0;
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
    }

    /** Stops the run at the next opportunity, as {@code brkpt} does. */
    public void requestBreak() { breakRequested = true; }

    /** Records device printf output. */
    public void printf(int slot, String text) {
        printf.add(new PrintfLine(m.steps - 1, slot, m.threadName(slot), text));
        for (ExecutionListener l : listeners) l.printf(m.steps - 1, slot, text);
    }

    /** Reports an error diagnostic, which stops the run. */
    public void report(DiagnosticCode code, String message, int[] pcs, int[] slots, String barrier) {
        report(code, Severity.ERROR, message, pcs, slots, barrier);
    }

    public void report(DiagnosticCode code, Severity severity, String message, int[] pcs, int[] slots, String barrier) {
        List<SourcePos> ptx = new ArrayList<>();
        List<CudaLoc> cuda = new ArrayList<>();
        for (int pc : pcs) {
            Instruction in = this.code[pc].insn;
            ptx.add(in.pos());
            if (in.loc() != null) cuda.add(in.loc());
        }
        List<Integer> threads = new ArrayList<>();
        for (int s : slots) threads.add(s);
        Diagnostic d = new Diagnostic(code, severity, message, Math.max(0, m.steps - 1), ptx, cuda, threads, barrier);
        diagnostics.add(d);
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
