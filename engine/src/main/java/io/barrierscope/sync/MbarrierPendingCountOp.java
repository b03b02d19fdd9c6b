package io.barrierscope.sync;

import io.barrierscope.diag.DiagnosticCode;
import io.barrierscope.exec.Interpreter;
import io.barrierscope.exec.Machine;
import io.barrierscope.exec.Op;
import io.barrierscope.exec.Src;

/**
 * {@code mbarrier.pending_count.b64 count, state} (9.7.13.15.17): the pending count of the object
 * prior to the .noComplete arrive-on that returned {@code state}.
 */
public final class MbarrierPendingCountOp extends Op {
    private final int dst;
    private final Src state;

    public MbarrierPendingCountOp(int dst, Src state) {
        this.dst = dst;
        this.state = state;
    }

    @Override
    public void execute(Interpreter x, int warp, int group, int active) {
        Machine m = x.machine();
        int base = warp << 5;
        for (int a = active; a != 0; a &= a - 1) {
            int s = base + Integer.numberOfTrailingZeros(a);
            long t = state.get(m, s);
            if ((t & MbarrierSync.TOKEN_TAG_MASK) != MbarrierSync.TOKEN_TAG || (t & MbarrierSync.TOKEN_NOCOMPLETE) == 0) {
                x.report(DiagnosticCode.MBARRIER_PENDING_COUNT_TOKEN, m.threadName(s) + ": mbarrier.pending_count at " + x.where(pc)
                        + " on a state that did not come from an mbarrier.arrive.noComplete; undefined (PTX ISA 9.7.13.15.17)",
                        new int[] {pc}, new int[] {s}, null);
                return;
            }
            if (dst >= 0) m.setReg(s, dst, MbarrierSync.tokenPending(t));
        }
        advance(m, warp, group);
    }
}
