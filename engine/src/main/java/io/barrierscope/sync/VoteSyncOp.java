package io.barrierscope.sync;

import io.barrierscope.exec.Interpreter;
import io.barrierscope.exec.Machine;
import io.barrierscope.exec.Src;

/** {@code vote.sync.{all,any,uni}.pred} and {@code vote.sync.ballot.b32} (PTX ISA 9.7.13.9), over non-exited members. */
public final class VoteSyncOp extends WarpSyncOp {
    public enum Mode { ALL, ANY, UNI, BALLOT }

    private final Mode mode;
    private final Src pred;
    private final int dst;

    public VoteSyncOp(Mode mode, Src pred, int dst, Src mask, String kindKey) {
        super(mask, kindKey);
        this.mode = mode;
        this.pred = pred;
        this.dst = dst;
    }

    /** Waits for its members but orders no memory (only bar.warp.sync does, 9.7.13.2). */
    @Override
    protected boolean ordersMemory() { return false; }

    @Override
    protected boolean requiresAllMembers() { return false; }

    @Override
    protected void complete(Interpreter x, int warp, int members) {
        Machine m = x.machine();
        int base = warp << 5;
        int ballot = 0;
        for (int l = members; l != 0; l &= l - 1) {
            int lane = Integer.numberOfTrailingZeros(l);
            VoteSyncOp op = (VoteSyncOp) x.op(m.pc[base + lane]);
            if ((op.pred.get(m, base + lane) & 1) != 0) ballot |= 1 << lane;
        }
        long result = switch (mode) {
            case ALL -> ballot == members ? 1 : 0;
            case ANY -> ballot != 0 ? 1 : 0;
            case UNI -> (ballot == 0 || ballot == members) ? 1 : 0;
            case BALLOT -> ballot & 0xFFFFFFFFL;
        };
        for (int l = members; l != 0; l &= l - 1) {
            int s = base + Integer.numberOfTrailingZeros(l);
            VoteSyncOp op = (VoteSyncOp) x.op(m.pc[s]);
            if (op.dst >= 0) m.setReg(s, op.dst, result);
        }
    }
}
