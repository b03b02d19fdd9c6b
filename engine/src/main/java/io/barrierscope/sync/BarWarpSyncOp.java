package io.barrierscope.sync;

import io.barrierscope.exec.Interpreter;
import io.barrierscope.exec.Src;

/** {@code bar.warp.sync membermask} (PTX ISA 9.7.13.2): waits for the members, nothing else. */
public final class BarWarpSyncOp extends WarpSyncOp {
    public BarWarpSyncOp(Src mask) { super(mask, "bar.warp.sync"); }

    @Override
    protected boolean requiresAllMembers() { return true; }

    @Override
    protected void complete(Interpreter x, int warp, int members) {}
}
