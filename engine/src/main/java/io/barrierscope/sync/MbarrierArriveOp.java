package io.barrierscope.sync;

import io.barrierscope.diag.DiagnosticCode;
import io.barrierscope.exec.Interpreter;
import io.barrierscope.exec.Machine;
import io.barrierscope.exec.Src;
import io.barrierscope.exec.SyncEvent;

/**
 * {@code mbarrier.arrive} and {@code mbarrier.arrive_drop} (9.7.13.15.13-14), with
 * {@code .expect_tx} (an expect-tx first, then an arrive-on of 1) and {@code .noComplete}. The
 * state token returned encodes the phase before the arrive-on.
 */
public final class MbarrierArriveOp extends MbarrierOp {
    private final int state;
    private final Src count;
    private final boolean drop;
    private final boolean expectTx;
    private final boolean noComplete;

    public MbarrierArriveOp(Src address, boolean sharedSpace, int state, Src count, boolean drop, boolean expectTx,
                            boolean noComplete) {
        super(address, sharedSpace);
        this.state = state;
        this.count = count;
        this.drop = drop;
        this.expectTx = expectTx;
        this.noComplete = noComplete;
    }

    @Override
    protected boolean remoteAllowed() { return true; }

    /**
     * Through a generic address only with the sink '_' (a peer's mbarrier cannot return a state,
     * 9.7.13.15.13) and without .noComplete, whose syntax has only the .shared{::cta} form (.13, .14).
     */
    @Override
    protected boolean genericRemoteAllowed() { return state < 0 && !noComplete; }

    /**
     * Plain arrivals of one per lane (the consumers' "done with this stage") that cannot complete
     * the phase before the last lane: every lane's checks pass alike, so only the arrivals remain.
     */
    @Override
    protected boolean whole(Interpreter x, Machine m, int warp, int lanes, Mbarrier b) {
        if (expectTx || drop || noComplete || count != null) return false;
        if ((b.phase > 0 && !b.observedPrevious) || Integer.bitCount(lanes) > b.pending) return false;
        long key = MbarrierUnit.key(b.cta, b.offset);
        long phaseBefore = b.phase;
        int base = warp << 5;
        // The lanes' releases first: a phase this completes completes at the last lane, after all of them.
        if (m.race != null) m.race.mbarrierArriveWarp(warp, lanes, b, relaxed, scope);
        for (int l = lanes; l != 0; l &= l - 1) {
            int s = base + Integer.numberOfTrailingZeros(l);
            int pendingBefore = b.pending--;
            b.noteArrival(s);
            m.memory.effects[s]++;
            if (x.observed()) x.emit(SyncEvent.MBAR_ARRIVE, s, key, 1, b.pending);
            MbarrierSync.changed(x, b);
            if (state >= 0) m.setReg(s, state, MbarrierSync.token(m, b, phaseBefore, pendingBefore, false));
            m.pc[s]++;
        }
        return true;
    }

    @Override
    protected boolean lane(Interpreter x, Machine m, int s) {
        Mbarrier b = valid(x, m, s);
        if (b == null) return false;
        long n = count == null ? 1 : count.get(m, s) & 0xFFFFFFFFL;
        int arrive = 1;
        if (expectTx) {
            long tx = b.tx + n;
            if (tx > Mbarrier.MAX_COUNT) {
                report(x, DiagnosticCode.MBARRIER_TX_RANGE, s, b, "expect-tx of " + n + " would make the tx-count " + tx
                        + ", above " + Mbarrier.MAX_COUNT + " (PTX ISA 9.7.13.15.2)");
                return false;
            }
        } else {
            if (!MbarrierSync.checkCount(x, this, s, b, n, DiagnosticCode.MBARRIER_COUNT_RANGE, "arrival count")) return false;
            arrive = (int) n;
        }
        if (drop) {
            if (b.expected - arrive <= 0) {
                report(x, DiagnosticCode.MBARRIER_DROP_TO_ZERO, s, b, "arrive_drop of " + arrive + " would lower the expected "
                        + "arrival count from " + b.expected + " to " + (b.expected - arrive) + "; it must stay at least 1 "
                        + "(PTX ISA 9.7.13.15.2)");
                return false;
            }
        }
        // Every check before any change: a message shows the counts as they were before this instruction.
        if (!MbarrierSync.arriveAllowed(x, this, s, b, arrive, noComplete, expectTx ? b.tx + n : b.tx,
                drop ? "9.7.13.15.14" : "9.7.13.15.13")) {
            return false;
        }
        long phaseBefore = b.phase;
        int pendingBefore = b.pending;
        if (expectTx) {
            b.tx += n;
            b.txExpected += n;
            if (x.observed()) x.emit(SyncEvent.MBAR_EXPECT_TX, s, MbarrierUnit.key(b.cta, b.offset), n, b.tx);
        }
        if (drop) b.expected -= arrive;
        if (!MbarrierSync.arriveOn(x, this, s, b, arrive, noComplete)) return false;
        if (state >= 0) m.setReg(s, state, MbarrierSync.token(m, b, phaseBefore, pendingBefore, noComplete));
        return true;
    }
}
