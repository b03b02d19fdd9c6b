package io.barrierscope.exec;

import io.barrierscope.diag.DiagnosticCode;

/**
 * The warp meeting of a {@code .sync.aligned} instruction that waits in ASYNC_WAIT with a tag of
 * its own (setmaxnreg, wgmma.fence/commit_group/wait_group): every executing lane waits until the
 * whole warp executes the same instruction (docs/semantics.md section 12). Reports a guard false for
 * some lanes (`warp-collective-partial`), exited lanes (`warp-sync-exited-member`) and lanes waiting
 * at another such instruction (`warp-sync-mismatch`) in the words of the instruction's own rule.
 */
final class AlignedMeeting {
    /** How an instruction's rule is worded in its messages. */
    record Words(String partial, String sync, String section, String mismatch) {}

    private AlignedMeeting() {}

    /**
     * The lanes of {@code warp} at {@code op} now ({@code group}, which executes it, plus the lanes
     * waiting there with {@code waitTag}), or 0 when a rule was broken and reported (a full warp is -1).
     */
    static int lanesHere(Interpreter x, Op op, int warp, int group, int active, int waitTag, Words w) {
        Machine m = x.machine();
        int base = warp << 5;
        if (active != group) {
            int missing = group & ~active;
            x.report(DiagnosticCode.WARP_COLLECTIVE_PARTIAL, op.insn.mnemonic() + " at " + x.where(op.pc) + " in " + m.warpName(warp)
                    + " has its guard false for lanes 0x" + Integer.toHexString(missing) + w.partial(), new int[] {op.pc},
                    new int[] {base + Integer.numberOfTrailingZeros(missing)}, null);
            return 0;
        }
        if (m.liveMask[warp] != m.existMask[warp]) {
            int missing = m.existMask[warp] & ~m.liveMask[warp];
            x.report(DiagnosticCode.WARP_SYNC_EXITED_MEMBER, op.insn.mnemonic() + " at " + x.where(op.pc) + " in " + m.warpName(warp)
                    + " waits for the whole warp (" + w.sync() + "), but lanes 0x" + Integer.toHexString(missing)
                    + " have exited and never arrive (" + w.section() + ")", new int[] {op.pc},
                    new int[] {base + Integer.numberOfTrailingZeros(missing)}, null);
            return 0;
        }
        // Lanes may arrive in several steps (a warp split by the scheduler): they wait, like at any
        // warp .sync instruction, until the whole warp is here.
        int here = group;
        for (int l = 0; l < 32; l++) {
            int s = base + l;
            if ((group & (1 << l)) == 0 && m.status[s] == ThreadStatus.ASYNC_WAIT && m.waitArg2[s] == waitTag) {
                if (m.pc[s] != op.pc) {
                    x.report(DiagnosticCode.WARP_SYNC_MISMATCH, "lanes of " + m.warpName(warp) + " met at different .sync.aligned "
                            + "instructions: " + op.insn.mnemonic() + " at " + x.where(op.pc) + " and " + x.op(m.pc[s]).insn.mnemonic()
                            + " at " + x.where(m.pc[s]) + "; " + w.mismatch(),
                            new int[] {op.pc, m.pc[s]}, new int[] {base + Integer.numberOfTrailingZeros(group), s}, null);
                    return 0;
                }
                here |= 1 << l;
            }
        }
        return here;
    }
}
