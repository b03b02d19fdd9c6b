package io.barrierscope.sync;

import io.barrierscope.diag.DiagnosticCode;
import io.barrierscope.exec.Interpreter;
import io.barrierscope.exec.Machine;
import io.barrierscope.exec.Op;
import io.barrierscope.exec.Src;
import io.barrierscope.exec.ThreadStatus;

/**
 * A warp-level {@code .sync} instruction (bar.warp.sync, shfl/vote/match/redux/elect.sync): the
 * executing thread waits until every member of {@code membermask} reached a warp instruction of
 * the same kind with the same mask; then {@link #complete} runs for all of them together.
 */
public abstract class WarpSyncOp extends Op {
    protected final Src mask;
    /** Identifies "the same qualifiers": ops with equal keys may meet. */
    public final String kindKey;

    protected WarpSyncOp(Src mask, String kindKey) {
        this.mask = mask;
        this.kindKey = kindKey;
    }

    /**
     * True when an exited member is undefined behaviour (bar.warp.sync, elect.sync); false when
     * the spec says only non-exited members take part (vote, match, redux, shfl).
     */
    protected abstract boolean requiresAllMembers();

    /**
     * True when the meeting orders the members' memory accesses (their earlier accesses happen
     * before their later ones). The ISA says so of bar.warp.sync alone ("bar.warp.sync also
     * guarantee memory ordering among threads participating in barrier", 9.7.13.2); vote, match,
     * redux, elect and shfl.sync only wait for their members and say nothing of memory, so they
     * return false, as do the matrix collectives ({@code WarpMatrixOp}); the wgmma meetings
     * ({@code AlignedWarpOp}) keep it by our decision (semantics.md sections 8 and 11).
     */
    protected boolean ordersMemory() { return true; }

    /** Executes the instruction for {@code members} (lanes of {@code warp}); each lane's own op supplies its operands. */
    protected abstract void complete(Interpreter x, int warp, int members);


    @Override
    public boolean isSynchronizing() { return true; }

    @Override
    public final void execute(Interpreter x, int warp, int group, int active) {
        Machine m = x.machine();
        if (active == group && group == m.liveMask[warp] && group == m.existMask[warp] && wholeWarp(x, m, warp, group)) return;
        advance(m, warp, group & ~active);
        int base = warp << 5;
        int masks = 0;
        int[] distinct = m.maskScratch;
        for (int a = active; a != 0; a &= a - 1) {
            int lane = Integer.numberOfTrailingZeros(a);
            int s = base + lane;
            int mm = (int) mask.get(m, s);
            if ((mm & (1 << lane)) == 0) {
                x.report(DiagnosticCode.WARP_SYNC_NOT_MEMBER, m.threadName(s) + " (lane " + lane + ") executes " + insn.mnemonic()
                        + " with membermask 0x" + Integer.toHexString(mm) + " that does not include it; undefined (PTX ISA 9.7.13)",
                        new int[] {pc}, new int[] {s}, WarpSync.syncRef(m, warp, mm, this));
                return;
            }
            m.waitArg[s] = mm;
            boolean seen = false;
            for (int i = 0; i < masks; i++) seen |= distinct[i] == mm;
            if (!seen) distinct[masks++] = mm;
        }
        m.setStatusLanes(warp, active, ThreadStatus.WARP_SYNC);
        for (int i = 0; i < masks && !x.finished(); i++) WarpSync.tryRelease(x, warp, distinct[i]);
    }

    /**
     * The whole warp, none exited, executes it together with one membermask naming exactly its
     * lanes (elect.sync, __syncwarp() of converged code): every member arrives in this step, so
     * they are released at once, as {@link WarpSync#tryRelease} would after scanning them.
     * Returns false, having changed nothing, for any other case.
     */
    private boolean wholeWarp(Interpreter x, Machine m, int warp, int lanes) {
        int base = warp << 5;
        int mm = (int) mask.get(m, base + Integer.numberOfTrailingZeros(lanes));
        if ((mm & m.existMask[warp]) != lanes) return false;
        for (int l = lanes & (lanes - 1); l != 0; l &= l - 1) {
            if ((int) mask.get(m, base + Integer.numberOfTrailingZeros(l)) != mm) return false;
        }
        for (int l = lanes; l != 0; l &= l - 1) m.waitArg[base + Integer.numberOfTrailingZeros(l)] = mm;
        m.setStatusLanes(warp, lanes, ThreadStatus.WARP_SYNC);
        if (m.race != null && ordersMemory()) m.race.warpSync(warp, lanes);
        complete(x, warp, lanes);
        if (x.finished()) return true;
        for (int l = lanes; l != 0; l &= l - 1) m.pc[base + Integer.numberOfTrailingZeros(l)]++;
        m.uniform[warp] = false;
        m.setStatusLanes(warp, lanes, ThreadStatus.RUNNABLE);
        return true;
    }
}
