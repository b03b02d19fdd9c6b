package io.barrierscope.sync;

import io.barrierscope.diag.DiagnosticCode;
import io.barrierscope.exec.Interpreter;
import io.barrierscope.exec.Machine;
import io.barrierscope.exec.Src;

/**
 * {@code shfl.sync.{up,down,bfly,idx}.b32 d{|p}, a, b, c, membermask}: each member reads {@code a}
 * of a source lane computed from {@code b} and the clamp/segment operand {@code c}. Reading a
 * lane outside the members is undefined and reported.
 */
public final class ShflSyncOp extends WarpSyncOp {
    public enum Mode { UP, DOWN, BFLY, IDX }

    private final Mode mode;
    private final Src a;
    private final Src b;
    private final Src c;
    private final int dst;
    private final int pred;

    public ShflSyncOp(Mode mode, Src a, Src b, Src c, int dst, int pred, Src mask, String kindKey) {
        super(mask, kindKey);
        this.mode = mode;
        this.a = a;
        this.b = b;
        this.c = c;
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
        long[] av = m.laneScratch;
        for (int l = members; l != 0; l &= l - 1) {
            int lane = Integer.numberOfTrailingZeros(l);
            av[lane] = ((ShflSyncOp) x.op(m.pc[base + lane])).a.get(m, base + lane) & 0xFFFFFFFFL;
        }
        for (int l = members; l != 0; l &= l - 1) {
            int lane = Integer.numberOfTrailingZeros(l);
            int s = base + lane;
            ShflSyncOp op = (ShflSyncOp) x.op(m.pc[s]);
            int bv = (int) op.b.get(m, s) & 0x1F; // ISA: bval[4:0] = b[4:0]
            int cv = (int) op.c.get(m, s);
            int segmask = (cv >> 8) & 0x1F;
            int clamp = cv & 0x1F;
            int maxLane = (lane & segmask) | (clamp & ~segmask);
            int minLane = lane & segmask;
            int j;
            boolean p;
            switch (op.mode) {
                case UP -> { j = lane - bv; p = j >= maxLane; }
                case DOWN -> { j = lane + bv; p = j <= maxLane; }
                case BFLY -> { j = lane ^ bv; p = j <= maxLane; }
                default -> { j = minLane | (bv & ~segmask); p = j <= maxLane; }
            }
            if (!p) j = lane;
            if (j < 0 || j > 31 || (members & (1 << j)) == 0) {
                x.report(DiagnosticCode.SHFL_INACTIVE_SOURCE, m.threadName(s) + " (lane " + lane + ") reads lane " + j
                        + " in " + op.insn.mnemonic() + " at " + x.where(op.pc) + ", which is not an active member of mask 0x"
                        + Integer.toHexString(members) + "; the result is undefined", new int[] {op.pc}, new int[] {s}, null);
                return;
            }
            if (op.dst >= 0) m.setReg(s, op.dst, av[j]);
            if (op.pred >= 0) m.setReg(s, op.pred, p ? 1 : 0);
        }
    }
}
