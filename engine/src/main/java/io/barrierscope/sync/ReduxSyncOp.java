package io.barrierscope.sync;

import io.barrierscope.exec.Interpreter;
import io.barrierscope.exec.Machine;
import io.barrierscope.exec.Src;

/** {@code redux.sync.op.type d, a, membermask} (PTX ISA 9.7.13.12) for .add/.min/.max (.u32/.s32) and .and/.or/.xor (.b32). */
public final class ReduxSyncOp extends WarpSyncOp {
    public enum Kind { ADD, MIN, MAX, AND, OR, XOR }

    private final Kind kind;
    private final boolean signed;
    private final Src a;
    private final int dst;

    public ReduxSyncOp(Kind kind, boolean signed, Src a, int dst, Src mask, String kindKey) {
        super(mask, kindKey);
        this.kind = kind;
        this.signed = signed;
        this.a = a;
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
        long acc = switch (kind) {
            case AND -> 0xFFFFFFFFL;
            case MIN -> signed ? Integer.MAX_VALUE : 0xFFFFFFFFL;
            case MAX -> signed ? Integer.MIN_VALUE : 0;
            default -> 0;
        };
        for (int l = members; l != 0; l &= l - 1) {
            int s = base + Integer.numberOfTrailingZeros(l);
            ReduxSyncOp op = (ReduxSyncOp) x.op(m.pc[s]);
            long raw = op.a.get(m, s);
            long v = signed ? (long) (int) raw : raw & 0xFFFFFFFFL;
            acc = switch (kind) {
                case ADD -> acc + v;
                case MIN -> Math.min(acc, v);
                case MAX -> Math.max(acc, v);
                case AND -> acc & v;
                case OR -> acc | v;
                case XOR -> acc ^ v;
            };
        }
        long result = acc & 0xFFFFFFFFL;
        for (int l = members; l != 0; l &= l - 1) {
            int s = base + Integer.numberOfTrailingZeros(l);
            ReduxSyncOp op = (ReduxSyncOp) x.op(m.pc[s]);
            if (op.dst >= 0) m.setReg(s, op.dst, result);
        }
    }
}
