package io.barrierscope.sync;

import io.barrierscope.diag.DiagnosticCode;
import io.barrierscope.exec.Interpreter;
import io.barrierscope.exec.Machine;
import io.barrierscope.exec.Src;
import io.barrierscope.exec.SyncEvent;

/**
 * {@code mbarrier.test_wait} / {@code mbarrier.try_wait}, with a state token or {@code .parity}
 * (9.7.13.15.16). Defined only for the current phase (false) and the immediately preceding one
 * (true). {@code try_wait} on an incomplete phase suspends the thread until the phase completes
 * or its time limit passes. A thread that polls an unchanged object again with no side effect in
 * between is parked until the object changes (semantics.md section 9).
 */
public final class MbarrierWaitOp extends MbarrierOp {
    /** The system-dependent try_wait time limit, in virtual nanoseconds, when no hint is given. */
    public static final long DEFAULT_SUSPEND_NS = 10_000;

    private final int dst;
    private final Src operand;
    private final boolean parity;
    private final boolean tryWait;
    private final Src hint;

    public MbarrierWaitOp(Src address, boolean sharedSpace, int dst, Src operand, boolean parity, boolean tryWait, Src hint) {
        super(address, sharedSpace);
        this.dst = dst;
        this.operand = operand;
        this.parity = parity;
        this.tryWait = tryWait;
        this.hint = hint;
    }

    public boolean isParity() { return parity; }

    /** The phase this thread's wait is for (its operand decoded), for explanations. */
    public long operandValue(Machine m, int s) { return operand.get(m, s); }

    void result(Machine m, int s, boolean complete) {
        if (dst >= 0) m.setReg(s, dst, complete ? 1 : 0);
    }

    /** A parity wait of the whole group on a phase that has completed: every lane passes alike. */
    @Override
    protected boolean whole(Interpreter x, Machine m, int warp, int lanes, Mbarrier b) {
        if (!parity) return false;
        int base = warp << 5;
        long p = operand.get(m, base + Integer.numberOfTrailingZeros(lanes)) & 0xFFFFFFFFL;
        if (p > 1 || p == b.parity()) return false; // a diagnostic, or threads to suspend or park: lane by lane
        for (int l = lanes & (lanes - 1); l != 0; l &= l - 1) {
            if ((operand.get(m, base + Integer.numberOfTrailingZeros(l)) & 0xFFFFFFFFL) != p) return false;
        }
        if (m.race != null) m.race.mbarrierAcquireWarp(warp, lanes, b, relaxed, scope);
        for (int l = lanes; l != 0; l &= l - 1) {
            int s = base + Integer.numberOfTrailingZeros(l);
            b.observedPrevious = true;
            result(m, s, true);
            m.pc[s]++;
        }
        return true;
    }

    @Override
    protected boolean lane(Interpreter x, Machine m, int s) {
        Mbarrier b = valid(x, m, s);
        if (b == null) return false;
        long v = operand.get(m, s);
        boolean complete;
        if (parity) {
            long p = v & 0xFFFFFFFFL;
            if (p > 1) {
                report(x, DiagnosticCode.MBARRIER_BAD_PARITY, s, b, "phaseParity " + p + " is neither 0 nor 1 (PTX ISA 9.7.13.15.16)");
                return false;
            }
            complete = p != b.parity();
        } else {
            if ((v & MbarrierSync.TOKEN_TAG_MASK) != MbarrierSync.TOKEN_TAG) {
                report(x, DiagnosticCode.MBARRIER_BAD_TOKEN, s, b, "state 0x" + Long.toHexString(v)
                        + " was not returned by an mbarrier.arrive; undefined (PTX ISA 9.7.13.15.16)");
                return false;
            }
            if (MbarrierSync.tokenCtaTag(v) != MbarrierSync.ctaTag(m, b.cta)) {
                // A foreign CTA's token and a made-up value with the tag bits look alike: say only what is known.
                report(x, DiagnosticCode.MBARRIER_BAD_TOKEN, s, b, "state 0x" + Long.toHexString(v) + " is not a token of this "
                        + "CTA's mbarriers: another CTA's (the same shared offset in another CTA is another object), or not a "
                        + "token at all; a state is valid only on the object whose arrive returned it (PTX ISA 9.7.13.15.16)");
                return false;
            }
            if (MbarrierSync.tokenIdentity(v) != MbarrierSync.identity(b)) {
                report(x, DiagnosticCode.MBARRIER_BAD_TOKEN, s, b, "the state token was returned by an arrive on "
                        + tokenSource(m, v, b) + ", not on this mbarrier object; a state is valid only on the object whose "
                        + "arrive returned it (PTX ISA 9.7.13.15.16)");
                return false;
            }
            long mask = MbarrierSync.TOKEN_PHASE_MASK;
            long age = ((b.phase & mask) - (v & mask)) & mask;
            if (age >= 2 && age < (mask + 1) / 2) {
                report(x, DiagnosticCode.MBARRIER_STALE_TOKEN, s, b, "the state token is from phase " + (b.phase - age)
                        + ", " + age + " phases ago; a wait is defined only for the current and the immediately preceding "
                        + "phase (PTX ISA 9.7.13.15.16)");
                return false;
            }
            if (age >= (mask + 1) / 2) {
                report(x, DiagnosticCode.MBARRIER_BAD_TOKEN, s, b, "the state token names a phase after the current one "
                        + "(PTX ISA 9.7.13.15.16)");
                return false;
            }
            complete = age == 1;
        }
        if (complete) {
            if (m.race != null) m.race.mbarrierAcquire(s, b, relaxed, scope);
            b.observedPrevious = true;
            result(m, s, true);
            return true;
        }
        long key = MbarrierUnit.key(b.cta, b.offset);
        long effects = m.memory.effects[s];
        long state = pollState(m, s, b);
        if (m.lastPollKey[s] == key && m.lastPollVersion[s] == state && m.lastPollEffects[s] == effects) {
            MbarrierSync.park(m, s, b);
            return false;
        }
        m.lastPollKey[s] = key;
        m.lastPollVersion[s] = state;
        m.lastPollEffects[s] = effects;
        if (tryWait && !x.policy().tryWaitReturnsEarly()) {
            long limit = hint == null ? DEFAULT_SUSPEND_NS : hint.get(m, s) & 0xFFFFFFFFL;
            MbarrierSync.suspend(x, s, b, m.cycles + Math.max(1, limit));
            return false;
        }
        result(m, s, false);
        if (x.observed()) x.emit(SyncEvent.MBAR_WAIT_FALSE, s, key, v, parity ? 1 : 0);
        return true;
    }

    boolean parity() { return parity; }

    /**
     * The loop this poll spins in (semantics.md section 12): set when the program is compiled
     * ({@link PollLoop#link}), before any run or thread sees the op; analysed on first need for an
     * op that did not come through the compiler.
     */
    private PollLoop loop;

    void link(PollLoop l) { loop = l; }

    /** The loop as set so far, without analysing (null when not linked yet). */
    PollLoop linkedLoop() { return loop; }

    private PollLoop loop(Machine m) {
        if (loop == null) loop = PollLoop.of(m.program, pc);
        return loop;
    }

    /** Whether the loop of this poll decides on memory it loads (a parked poller then wakes on any write). */
    boolean loopReadsMemory(Machine m) { return loop(m).readsMemory; }

    /**
     * What a re-poll finding the same value proves the loop is at a fixpoint (semantics.md section
     * 11): the object's version, the registers that decide the loop's other exits (a counter, a
     * %globaltimer or %clock reading, a loaded flag) and, when those come from memory, every write
     * so far by anyone. A loop that can never be parked gets the step count, never seen twice.
     */
    private long pollState(Machine m, int s, Mbarrier b) {
        PollLoop l = loop(m);
        if (!l.parkable) return ~m.steps;
        long h = b.version * PollHashes.MIX;
        if (l.readsMemory) h ^= m.memory.writes;
        if (l.regs.length < PollHashes.BATCH_MIN) return PollHashes.fold(m, s, l.regs, h);
        return m.mbarriers.pollHashes.of(m, s, l.regs, h);
    }

    /** The lanes poll in lane order: the register folds are made for all of them at once, on first need. */
    @Override
    protected void beforeLanes(Machine m, int active) { m.mbarriers.pollHashes.begin(active); }

    /** Where a token of another object came from, in words: the other mbarrier, or an earlier incarnation of this one. */
    private static String tokenSource(Machine m, long v, Mbarrier b) {
        int id = MbarrierSync.tokenIdentity(v);
        int offset = (id & 0x7FFF) << 3;
        if (offset == b.offset) {
            return "an earlier incarnation of this place (before an mbarrier.inval and a new mbarrier.init)";
        }
        return "the mbarrier " + name(m, offset);
    }
}
