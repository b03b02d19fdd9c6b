package io.barrierscope.sync;

import io.barrierscope.diag.DiagnosticCode;
import io.barrierscope.exec.Interpreter;
import io.barrierscope.exec.Machine;
import io.barrierscope.exec.Src;

/**
 * {@code cp.async.mbarrier.arrive{.noinc}.shared{::cta}.b64 [addr]} (9.7.13.15.15): an arrive-on
 * once all of the thread's earlier cp.async completed. Without .noinc the pending count is
 * raised by one first, so the phase sees no net change.
 */
public final class CpAsyncMbarrierArriveOp extends MbarrierOp {
    private final boolean noinc;

    public CpAsyncMbarrierArriveOp(Src address, boolean sharedSpace, boolean noinc) {
        super(address, sharedSpace);
        this.noinc = noinc;
    }

    @Override
    protected boolean lane(Interpreter x, Machine m, int s) {
        Mbarrier b = valid(x, m, s);
        if (b == null) return false;
        if (!noinc) {
            if (b.pending + 1 > Mbarrier.MAX_COUNT) {
                report(x, DiagnosticCode.MBARRIER_COUNT_RANGE, s, b, "raising the pending count would exceed " + Mbarrier.MAX_COUNT);
                return false;
            }
            b.pending++;
            b.version++;
        }
        long ready = Math.max(m.async.lastCpAsyncReady(s), m.cycles + 1);
        AsyncCopySync.issue(x, new AsyncOperation(m.async.nextId(), ready, AsyncOperation.Kind.CP_ASYNC_ARRIVE, s, pc, -1, -1, 0,
                new int[] {b.cta}, 0, 0, b.offset, 0, -1, null));
        return true;
    }
}
