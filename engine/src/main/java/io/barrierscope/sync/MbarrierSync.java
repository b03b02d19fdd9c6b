package io.barrierscope.sync;

import io.barrierscope.diag.DiagnosticCode;
import io.barrierscope.exec.Interpreter;
import io.barrierscope.exec.Machine;
import io.barrierscope.exec.Space;
import io.barrierscope.exec.SymbolTable;
import io.barrierscope.exec.SyncEvent;
import io.barrierscope.exec.ThreadStatus;

/**
 * The mbarrier rules shared by its instructions (semantics.md section 6): arrive-on, phase
 * completion releasing suspended waiters, and waking parked pollers whenever the object changes.
 */
public final class MbarrierSync {
    private MbarrierSync() {}

    /**
     * Opaque state tokens (PTX ISA 9.7.13.15.16): bits 60-63 a tag, so a wait can tell a token
     * from an arbitrary value; bits 56-59 the issuing object's CTA ({@link #ctaTag}, stored XOR 5 so
     * a token of CTA 0 keeps the 0xB5 top byte tokens always had); bit 55 set by a .noComplete
     * arrive; bits 35-54 the pending count before the arrive-on (9.7.13.15.17); bits 16-34 which
     * object of its CTA issued it (its shared offset / 8 and the low 4 bits of how many times the
     * place was initialized, so a token from another mbarrier or from before an inval + init is
     * told apart); bits 0-15 the low 16 bits of the phase the arrive was in (semantics.md "State
     * tokens name their object").
     */
    static final long TOKEN_TAG = 0xBL << 60;
    static final long TOKEN_TAG_MASK = 0xFL << 60;
    private static final int TOKEN_CTA_SHIFT = 56;
    static final long TOKEN_NOCOMPLETE = 1L << 55;
    static final int TOKEN_PHASE_BITS = 16;
    static final long TOKEN_PHASE_MASK = (1L << TOKEN_PHASE_BITS) - 1;

    static long token(Machine m, Mbarrier b, long phase, int pendingBefore, boolean noComplete) {
        return TOKEN_TAG | ((long) (ctaTag(m, b.cta) ^ 5) << TOKEN_CTA_SHIFT) | (noComplete ? TOKEN_NOCOMPLETE : 0)
                | ((long) (pendingBefore & 0xFFFFF) << 35) | ((long) identity(b) << 16) | (phase & TOKEN_PHASE_MASK);
    }

    /**
     * Four bits naming {@code cta} in a token: its place when the CTAs are numbered cluster by
     * cluster (the flat index of its cluster in the grid of clusters times the cluster's size, plus
     * its rank), mod 16. Distinct for the CTAs of one cluster (at most 16) and for any 16 CTAs
     * consecutive in that numbering, so also for CTAs of neighbouring clusters of a 2D or 3D
     * cluster shape (the flat index of a cluster's first CTA plus the rank was not: in a 4x2 grid
     * of 2x2 clusters CTA (2,0) and CTA (0,1) had one tag). For a grid without clusters, or with
     * clusters along x only, it is the CTA's flat index mod 16.
     */
    static int ctaTag(Machine m, int cta) {
        int first = m.memory.clusterMembers[cta][0];
        int gx = m.grid.x(), gy = m.grid.y();
        int cx = m.cluster.x(), cy = m.cluster.y(), cz = m.cluster.z();
        int clusterIndex = (first % gx) / cx + ((first / gx) % gy) / cy * (gx / cx) + (first / (gx * gy)) / cz * (gx / cx) * (gy / cy);
        return (clusterIndex * cx * cy * cz + m.rankOf(cta)) & 0xF;
    }

    static int tokenCtaTag(long token) { return (int) ((token >>> TOKEN_CTA_SHIFT) & 0xF) ^ 5; }

    /** The 19-bit identity of the object's current incarnation within its CTA, as a token carries it. */
    static int identity(Mbarrier b) {
        return ((b.offset >>> 3) & 0x7FFF) | ((b.inits & 0xF) << 15);
    }

    static int tokenIdentity(long token) { return (int) ((token >>> 16) & 0x7FFFF); }

    static int tokenPending(long token) { return (int) ((token >>> 35) & 0xFFFFF); }

    /** "full+8 (shared 0x18)". */
    public static String describe(Machine m, int offset) {
        String v = variable(m, offset);
        return v == null ? "shared 0x" + Integer.toHexString(offset) : v + " (shared 0x" + Integer.toHexString(offset) + ")";
    }

    /** The shared variable holding {@code offset} as the source names it, "full" or "full+8", or null if none does. */
    public static String variable(Machine m, int offset) {
        for (SymbolTable.Placed p : m.program.symbols.all()) {
            if (p.space() == Space.SHARED && offset >= p.offset() && offset < p.offset() + Math.max(p.size(), 1)) {
                long rel = offset - p.offset();
                return readable(p.name()) + (rel == 0 ? "" : "+" + rel);
            }
        }
        return null;
    }

    /**
     * The source name of a variable: nvcc names a function's static __shared__ variable
     * {@code _ZZ<n><function>E<k><name>} (Itanium local-name mangling); show {@code name}.
     */
    public static String readable(String ptxName) {
        java.util.regex.Matcher mm = java.util.regex.Pattern.compile("_ZZ(\\d+)").matcher(ptxName);
        if (!mm.lookingAt()) return ptxName;
        int at = mm.end() + Integer.parseInt(mm.group(1));
        if (at >= ptxName.length() || ptxName.charAt(at) != 'E') return ptxName;
        java.util.regex.Matcher k = java.util.regex.Pattern.compile("(\\d+)").matcher(ptxName).region(at + 1, ptxName.length());
        if (!k.lookingAt()) return ptxName;
        int len = Integer.parseInt(k.group(1));
        int start = k.end();
        return start + len <= ptxName.length() ? ptxName.substring(start, start + len) : ptxName;
    }

    /**
     * An arrive-on by {@code s} with {@code count}; completes the phase when nothing is pending.
     * Returns false when it reported undefined behaviour.
     */
    static boolean arriveOn(Interpreter x, MbarrierOp op, int s, Mbarrier b, int count, boolean noComplete) {
        if (!arriveAllowed(x, op, s, b, count, noComplete, b.tx, "9.7.13.15.13")) return false;
        Machine m = x.machine();
        b.pending -= count;
        b.noteArrival(s);
        m.memory.effects[s]++;
        if (x.observed()) x.emit(SyncEvent.MBAR_ARRIVE, s, MbarrierUnit.key(b.cta, b.offset), count, b.pending);
        if (m.race != null) m.race.mbarrierArrive(s, b, op.relaxed, op.scope);
        changed(x, b);
        return true;
    }

    /**
     * The undefined cases of an arrive-on of {@code count}, checked before the instruction changes
     * anything, so a message shows the object as it was before the operation. {@code txAfter} is
     * the tx-count the arrive-on will see (after an .expect_tx); {@code section} is the ISA
     * section of the instruction (.noComplete of arrive_drop is 9.7.13.15.14). False after reporting.
     */
    static boolean arriveAllowed(Interpreter x, MbarrierOp op, int s, Mbarrier b, int count, boolean noComplete, long txAfter,
                                 String section) {
        if (b.phase > 0 && !b.observedPrevious) {
            op.report(x, DiagnosticCode.MBARRIER_PHASE_UNOBSERVED, s, b, "arrive-on in phase " + b.phase + " before any "
                    + "test_wait/try_wait returned true for phase " + (b.phase - 1) + "; each phase must be observed complete "
                    + "before an arrive-on in the next (PTX ISA 9.7.13.15.4)");
            return false;
        }
        if (count > b.pending) {
            op.report(x, DiagnosticCode.MBARRIER_OVER_ARRIVAL, s, b, "arrive-on with count " + count + " but only " + b.pending
                    + " arrivals are pending: the pending count would go below zero");
            return false;
        }
        if (noComplete && count == b.pending && txAfter == 0) {
            op.report(x, DiagnosticCode.MBARRIER_NOCOMPLETE_COMPLETED, s, b, ".noComplete arrive with count " + count
                    + " would complete the phase; undefined (PTX ISA " + section + ")");
            return false;
        }
        return true;
    }

    /** The object changed: complete the phase if it can, then wake whoever polls it. */
    static void changed(Interpreter x, Mbarrier b) {
        b.version++;
        if (b.valid && b.canComplete()) {
            b.keepArrivals(x.machine().firstWarpOfCta(b.cta), x.machine().warpsPerCta);
            b.completePhase();
            if (x.machine().race != null) x.machine().race.mbarrierPhaseComplete(b);
            int released = release(x, b);
            if (x.observed()) x.emit(SyncEvent.MBAR_PHASE_COMPLETE, -1, MbarrierUnit.key(b.cta, b.offset), b.phase - 1, released);
        }
        wakeParked(x, b, false);
    }

    /** Suspended try_waits on the phase that just completed return true, in slot order. */
    private static int release(Interpreter x, Mbarrier b) {
        if (b.suspended == 0) return 0;
        Machine m = x.machine();
        long key = MbarrierUnit.key(b.cta, b.offset);
        int released = 0;
        int w0 = m.firstWarpOfCta(b.cta);
        for (int w = w0; w < w0 + m.warpsPerCta && b.suspended > 0; w++) {
            if (m.runMask[w] == m.liveMask[w]) continue; // nobody of this warp waits on anything
            int lanes = 0;
            // The lanes' acquires go to the detector after the loop (it reads none of what the loop
            // changes), as one call when one instruction released them all.
            MbarrierWaitOp first = null;
            boolean oneOp = true;
            for (int l = m.liveMask[w]; l != 0; l &= l - 1) {
                int s = (w << 5) + Integer.numberOfTrailingZeros(l);
                if (m.status[s] != ThreadStatus.MBAR_WAIT || m.waitValue[s] != key) continue;
                released++;
                b.suspended--;
                MbarrierWaitOp op = (MbarrierWaitOp) x.op(m.pc[s]);
                if (first == null) first = op;
                else if (op != first) oneOp = false;
                op.result(m, s, true);
                b.observedPrevious = true;
                m.pc[s]++;
                lanes |= 1 << (s & 31);
                m.setStatus(s, ThreadStatus.RUNNABLE);
            }
            if (m.race != null && lanes != 0) {
                if (oneOp) {
                    m.race.mbarrierAcquireWarp(w, lanes, b, first.relaxed, first.scope);
                } else {
                    for (int l = lanes; l != 0; l &= l - 1) {
                        int s = (w << 5) + Integer.numberOfTrailingZeros(l);
                        MbarrierWaitOp op = (MbarrierWaitOp) x.op(m.pc[s] - 1);
                        m.race.mbarrierAcquire(s, b, op.relaxed, op.scope);
                    }
                }
            }
            // Every lane of the warp moving on together keeps equal PCs equal (as Op.advance).
            if (lanes != 0 && lanes != m.existMask[w]) m.uniform[w] = false;
        }
        return released;
    }

    /**
     * Memory was written: every parked thread polls again, since what its loop reads besides the
     * mbarrier may have changed (semantics.md section 12). Nothing to do while nobody is parked.
     */
    public static void memoryWritten(Interpreter x) {
        Machine m = x.machine();
        if (!m.mbarriers.anyParked()) return;
        for (Mbarrier b : m.mbarriers.all()) {
            if (b.parked > 0) wakeParked(x, b, true);
        }
    }

    /** Threads parked on the object may find something new: they poll again. */
    private static void wakeParked(Interpreter x, Mbarrier b, boolean onlyMemoryReaders) {
        if (b.parked == 0) return;
        Machine m = x.machine();
        long key = MbarrierUnit.key(b.cta, b.offset);
        int w0 = m.firstWarpOfCta(b.cta);
        for (int w = w0; w < w0 + m.warpsPerCta && b.parked > 0; w++) {
            if (m.runMask[w] == m.liveMask[w]) continue;
            for (int l = m.liveMask[w]; l != 0; l &= l - 1) {
                int s = (w << 5) + Integer.numberOfTrailingZeros(l);
                if (m.status[s] == ThreadStatus.PARKED && m.waitValue[s] == key
                        && (!onlyMemoryReaders || ((MbarrierWaitOp) x.op(m.pc[s])).loopReadsMemory(m))) {
                    b.parked--;
                    m.mbarriers.parkedTotal--;
                    m.setStatus(s, ThreadStatus.RUNNABLE);
                }
            }
        }
    }

    /** Parks a thread that polled {@code b} again with nothing changed (semantics.md section 9). */
    static void park(Machine m, int s, Mbarrier b) {
        m.waitValue[s] = MbarrierUnit.key(b.cta, b.offset);
        m.waitArg[s] = (int) b.phase;
        b.parked++;
        m.mbarriers.parkedTotal++;
        m.setStatus(s, ThreadStatus.PARKED);
    }

    /** Suspends a try_wait on {@code b} until its phase completes or virtual time {@code until}. */
    static void suspend(Interpreter x, int s, Mbarrier b, long until) {
        Machine m = x.machine();
        m.waitValue[s] = MbarrierUnit.key(b.cta, b.offset);
        m.waitArg[s] = (int) b.phase;
        b.suspended++;
        x.suspend(s, until, ThreadStatus.MBAR_WAIT);
    }

    /** A suspended try_wait reached its time limit: it returns false. */
    public static void timeout(Interpreter x, int s) {
        Machine m = x.machine();
        MbarrierWaitOp op = (MbarrierWaitOp) x.op(m.pc[s]);
        Mbarrier b = m.mbarriers.get(m.waitValue[s]);
        if (b != null) b.suspended--;
        op.result(m, s, false);
        if (x.observed()) x.emit(SyncEvent.MBAR_WAIT_FALSE, s, m.waitValue[s], op.operandValue(m, s), op.parity() ? 1 : 0);
        m.pc[s]++;
        m.uniform[s >> 5] = false;
        m.setStatus(s, ThreadStatus.RUNNABLE);
    }

    static boolean checkCount(Interpreter x, MbarrierOp op, int s, Mbarrier b, long count, DiagnosticCode code, String what) {
        if (count < 1 || count > Mbarrier.MAX_COUNT) {
            op.report(x, code, s, b, what + " " + count + " is outside 1.." + Mbarrier.MAX_COUNT + " (PTX ISA 9.7.13.15.2)");
            return false;
        }
        return true;
    }
}
