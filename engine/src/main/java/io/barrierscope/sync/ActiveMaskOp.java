package io.barrierscope.sync;

import io.barrierscope.exec.Interpreter;
import io.barrierscope.exec.Machine;
import io.barrierscope.exec.Op;

/** {@code activemask.b32 d} (PTX ISA 9.7.13.11): the lanes executing this instruction together. */
public final class ActiveMaskOp extends Op {
    private final int dst;

    public ActiveMaskOp(int dst) { this.dst = dst; }

    @Override
    public void execute(Interpreter x, int warp, int group, int active) {
        Machine m = x.machine();
        for (int a = active; a != 0; a &= a - 1) {
            m.setReg((warp << 5) + Integer.numberOfTrailingZeros(a), dst, active & 0xFFFFFFFFL);
        }
        advance(m, warp, group);
    }
}
