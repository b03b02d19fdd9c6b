package io.barrierscope.sync;

import io.barrierscope.diag.DiagnosticCode;
import io.barrierscope.exec.Interpreter;
import io.barrierscope.exec.Machine;
import io.barrierscope.exec.Src;
import io.barrierscope.exec.SyncEvent;

/**
 * {@code mbarrier.expect_tx} (tx-count += n) and {@code mbarrier.complete_tx} (tx-count -= n,
 * which may complete the phase), 9.7.13.15.11-12. The tx-count may go negative for a while:
 * completion before expectation is legal.
 */
public final class MbarrierTxOp extends MbarrierOp {
    private final Src amount;
    private final boolean complete;

    public MbarrierTxOp(Src address, boolean sharedSpace, Src amount, boolean complete) {
        super(address, sharedSpace);
        this.amount = amount;
        this.complete = complete;
    }

    @Override
    protected boolean remoteAllowed() { return true; }

    @Override
    protected boolean genericRemoteAllowed() { return true; }

    @Override
    protected boolean lane(Interpreter x, Machine m, int s) {
        Mbarrier b = valid(x, m, s);
        if (b == null) return false;
        long n = amount.get(m, s) & 0xFFFFFFFFL;
        long tx = complete ? b.tx - n : b.tx + n;
        if (Math.abs(tx) > Mbarrier.MAX_COUNT) {
            report(x, DiagnosticCode.MBARRIER_TX_RANGE, s, b, (complete ? "complete-tx" : "expect-tx") + " of " + n
                    + " would make the tx-count " + tx + ", outside +-" + Mbarrier.MAX_COUNT + " (PTX ISA 9.7.13.15.2)");
            return false;
        }
        b.tx = tx;
        if (complete) b.txCompleted += n;
        else b.txExpected += n;
        if (x.observed()) x.emit(complete ? SyncEvent.MBAR_COMPLETE_TX : SyncEvent.MBAR_EXPECT_TX, s, MbarrierUnit.key(b.cta, b.offset), n, b.tx);
        m.memory.effects[s]++;
        MbarrierSync.changed(x, b);
        return true;
    }
}
