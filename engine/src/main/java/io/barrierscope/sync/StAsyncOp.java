package io.barrierscope.sync;

import io.barrierscope.diag.DiagnosticCode;
import io.barrierscope.exec.Interpreter;
import io.barrierscope.exec.Machine;
import io.barrierscope.exec.Space;
import io.barrierscope.exec.Src;

/**
 * {@code st.async} and {@code red.async} with {@code .mbarrier::complete_tx::bytes} (PTX ISA
 * 9.7.9.12, 9.7.13.7): a store (or reduction) into a cluster peer's shared memory that completes
 * later, followed by complete-tx of its size on the peer's mbarrier.
 */
public final class StAsyncOp extends MbarrierOp {
    private final Src addr;
    private final Src[] values;
    private final int size;
    /** -1 for st.async; else the reduction: 0 add, 1 min, 2 max, 3 and, 4 or, 5 xor, 6 inc, 7 dec, 8 min.s32, 9 max.s32. */
    private final int redOp;
    static final int MIN_S = 8;
    static final int MAX_S = 9;

    /** With .shared::cluster addresses when {@code sharedSpace}, else generic ones (PTX ISA 9.7.9.12, 9.7.13.7). */
    public StAsyncOp(Src addr, Src[] values, int size, Src mbar, int redOp, boolean sharedSpace) {
        super(mbar, sharedSpace);
        this.addr = addr;
        this.values = values;
        this.size = size;
        this.redOp = redOp;
    }

    @Override
    protected boolean remoteAllowed() { return true; }

    @Override
    protected boolean lane(Interpreter x, Machine m, int s) {
        long key = locate(x, m, s);
        if (key < 0) return false;
        long a = addr.get(m, s);
        if (!sharedSpace) {
            if (a < Space.SHARED_WINDOW || a >= Space.SHARED_WINDOW + Space.WINDOW_SIZE) {
                x.report(DiagnosticCode.ASYNC_REMOTE_TARGET, m.threadName(s) + ": " + insn.mnemonic() + " at " + x.where(pc)
                        + ": generic destination 0x" + Long.toHexString(a) + " is not in the shared::cluster window; undefined "
                        + "(PTX ISA " + (redOp < 0 ? "9.7.9.12" : "9.7.13.7") + ")", new int[] {pc}, new int[] {s}, null);
                return false;
            }
            a -= Space.SHARED_WINDOW;
        }
        int own = m.ctaOfSlot(s);
        int cta = a > Space.CTA_OFFSET_MASK ? m.memory.peer(own, a) : own;
        if (!target(x, m, s, cta, (int) (key >>> 32))) return false;
        long ready = m.cycles + x.policy().asyncLatency();
        for (int i = 0; i < values.length; i++) {
            AsyncCopySync.issue(x, new AsyncOperation(m.async.nextId(), ready, AsyncOperation.Kind.REMOTE_STORE, s, pc, -1, Space.SHARED, 0,
                    new int[] {cta}, (a & Space.CTA_OFFSET_MASK) + (long) i * size, size, (int) key, values[i].get(m, s), redOp, null));
        }
        return true;
    }

    /**
     * The target rule (9.7.9.12, 9.7.13.7): the destination and the mbarrier belong to the same
     * CTA, which is in the cluster and is not the executing thread's; otherwise undefined. Reported
     * before anything is issued, so no complete-tx lands on another CTA's mbarrier.
     */
    private boolean target(Interpreter x, Machine m, int s, int dstCta, int mbarCta) {
        String rule = "; the destination and the mbarrier must belong to the same CTA of the cluster, not the executing "
                + "thread's own (PTX ISA " + (redOp < 0 ? "9.7.9.12" : "9.7.13.7") + ")";
        String why = null;
        if (dstCta != mbarCta) {
            why = "the destination is in cluster rank " + m.rankOf(dstCta) + " but the mbarrier " + name(m, mbarOffset(m, s))
                    + " is in rank " + m.rankOf(mbarCta);
        } else if (dstCta == m.ctaOfSlot(s)) {
            why = "the destination and the mbarrier are in the executing thread's own CTA (rank " + m.rankOf(dstCta) + ")";
        }
        if (why == null) return true;
        x.report(DiagnosticCode.ASYNC_REMOTE_TARGET, m.threadName(s) + ": " + insn.mnemonic() + " at " + x.where(pc) + ": " + why
                + rule, new int[] {pc}, new int[] {s}, null);
        return false;
    }

    private int mbarOffset(Machine m, int s) {
        long a = address.get(m, s);
        return (int) ((sharedSpace ? a : a - Space.SHARED_WINDOW) & Space.CTA_OFFSET_MASK);
    }
}
