package io.barrierscope.sync;

import io.barrierscope.exec.Interpreter;
import io.barrierscope.exec.Machine;
import io.barrierscope.exec.Src;

/** {@code elect.sync d|p, membermask} (PTX ISA 9.7.13.14): the lowest member lane is the leader, deterministically. */
public final class ElectSyncOp extends WarpSyncOp {
    private final int dst;
    private final int pred;

    public ElectSyncOp(Src mask, int dst, int pred) {
        super(mask, "elect.sync");
        this.dst = dst;
        this.pred = pred;
    }

    /** Waits for its members but orders no memory (only bar.warp.sync does, 9.7.13.2). */
    @Override
    protected boolean ordersMemory() { return false; }

    @Override
    protected boolean requiresAllMembers() { return true; }

    @Override
    protected void complete(Interpreter x, int warp, int members) {
        Machine m = x.machine();
        int leader = Integer.numberOfTrailingZeros(members);
        for (int l = members; l != 0; l &= l - 1) {
            int lane = Integer.numberOfTrailingZeros(l);
            int s = (warp << 5) + lane;
            ElectSyncOp op = (ElectSyncOp) x.op(m.pc[s]);
            if (op.dst >= 0) m.setReg(s, op.dst, leader);
            if (op.pred >= 0) m.setReg(s, op.pred, lane == leader ? 1 : 0);
        }
    }
}
