package io.barrierscope.sync;

import io.barrierscope.exec.Interpreter;
import io.barrierscope.exec.Src;

/**
 * A warp-synchronous {@code .sync.aligned} instruction whose only effect a barrier debugger
 * observes is the meeting itself ({@code wgmma.fence}, {@code wgmma.commit_group},
 * {@code wgmma.wait_group}; setmaxnreg, which also has a register pool, is {@code SetmaxnregOp}). The ISA says of each: ".sync causes the
 * executing thread to wait until all threads in the warp execute the same instruction before
 * resuming execution", and ".aligned: all threads in the warp must execute the same
 * instruction". So every lane of the warp waits here for all the others (the full mask, as
 * {@code bar.warp.sync 0xffffffff}); lanes meeting at another instruction are
 * {@code warp-sync-mismatch}, an exited lane {@code warp-sync-exited-member}.
 */
public final class AlignedWarpOp extends WarpSyncOp {
    private static final Src FULL_WARP = Src.imm(0xFFFFFFFFL);

    /** {@code index}: the instruction's own index, so only lanes at this very instruction meet. */
    public AlignedWarpOp(String mnemonic, int index) {
        super(FULL_WARP, mnemonic + "@" + index);
    }

    @Override
    protected boolean requiresAllMembers() { return true; }

    @Override
    protected void complete(Interpreter x, int warp, int members) {}
}
