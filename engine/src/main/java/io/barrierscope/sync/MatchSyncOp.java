package io.barrierscope.sync;

import io.barrierscope.exec.Interpreter;
import io.barrierscope.exec.Machine;
import io.barrierscope.exec.Src;

/** {@code match.sync.{any,all}.{b32,b64} d{|p}, a, membermask} (PTX ISA 9.7.13.10), over non-exited members. */
public final class MatchSyncOp extends WarpSyncOp {
    private final boolean all;
    private final boolean wide;
    private final Src a;
    private final int dst;
    private final int pred;

    public MatchSyncOp(boolean all, boolean wide, Src a, int dst, int pred, Src mask, String kindKey) {
        super(mask, kindKey);
        this.all = all;
        this.wide = wide;
        this.a = a;
        this.dst = dst;
        this.pred = pred;
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
        long[] v = m.laneScratch;
        for (int l = members; l != 0; l &= l - 1) {
            int lane = Integer.numberOfTrailingZeros(l);
            MatchSyncOp op = (MatchSyncOp) x.op(m.pc[base + lane]);
            long raw = op.a.get(m, base + lane);
            v[lane] = wide ? raw : raw & 0xFFFFFFFFL;
        }
        boolean same = true;
        int first = Integer.numberOfTrailingZeros(members);
        for (int l = members; l != 0; l &= l - 1) same &= v[Integer.numberOfTrailingZeros(l)] == v[first];
        for (int l = members; l != 0; l &= l - 1) {
            int lane = Integer.numberOfTrailingZeros(l);
            int s = base + lane;
            MatchSyncOp op = (MatchSyncOp) x.op(m.pc[s]);
            int d;
            if (all) {
                d = same ? members : 0;
            } else {
                d = 0;
                for (int k = members; k != 0; k &= k - 1) {
                    int o = Integer.numberOfTrailingZeros(k);
                    if (v[o] == v[lane]) d |= 1 << o;
                }
            }
            if (op.dst >= 0) m.setReg(s, op.dst, d & 0xFFFFFFFFL);
            if (op.pred >= 0) m.setReg(s, op.pred, same ? 1 : 0);
        }
    }
}
