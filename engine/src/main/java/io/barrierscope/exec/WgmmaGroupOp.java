package io.barrierscope.exec;

import io.barrierscope.diag.DiagnosticCode;
import io.barrierscope.ptx.Operand;

/**
 * {@code wgmma.fence.sync.aligned} (PTX ISA 9.7.15.7.1, {@link WgmmaFence}),
 * {@code wgmma.commit_group.sync.aligned} (9.7.15.7.2) and {@code wgmma.wait_group.sync.aligned N}
 * (9.7.15.7.3), per warp ({@link WgmmaGroups}). Both are {@code .aligned}: the whole warp executes
 * them together, so lanes of a warp meeting them apart (or a warp with exited lanes) are
 * {@code warp-collective-partial}. A wait whose groups are not formed yet, because a warp of the
 * warpgroup has not issued one of its operations, suspends the warp until it has.
 */
final class WgmmaGroupOp extends Op {
    /** Groups that may stay pending, -1 for commit_group, -2 for fence. */
    private final int allowed;

    private WgmmaGroupOp(int allowed) { this.allowed = allowed; }

    static Op compile(CompileContext c) {
        if (!c.has(".sync") || !c.has(".aligned")) throw c.error("unsupported instruction " + c.insn().mnemonic() + " (needs .sync.aligned)");
        if (c.has(".fence")) {
            c.expectOperands(0, 0);
            return new WgmmaGroupOp(-2);
        }
        if (c.has(".commit_group")) {
            c.expectOperands(0, 0);
            return new WgmmaGroupOp(-1);
        }
        c.expectOperands(1, 1);
        if (!(c.operand(0) instanceof Operand.Imm im) || im.value() < 0 || im.value() > 7) {
            throw c.error(c.insn().mnemonic() + " takes an integer constant N (0..7)");
        }
        return new WgmmaGroupOp((int) im.value());
    }

    @Override
    public boolean isSynchronizing() { return allowed >= 0; }

    private static final AlignedMeeting.Words WORDS = new AlignedMeeting.Words(
            "; a .sync.aligned wgmma instruction needs the whole warp (PTX ISA 9.7.15)", ".sync.aligned", "PTX ISA 9.7.15",
            "all threads of the warp must execute the same instruction (PTX ISA 9.7.15)");

    @Override
    public void execute(Interpreter x, int warp, int group, int active) {
        Machine m = x.machine();
        if (active == 0) {
            advance(m, warp, group); // a guard false for every lane: not executed
            return;
        }
        int base = warp << 5;
        int here = AlignedMeeting.lanesHere(x, this, warp, group, active, WgmmaGroups.WAITING, WORDS);
        if (here == 0) return;
        if (here != m.existMask[warp] || !act(x, warp)) {
            if (x.finished()) return;
            for (int g = group; g != 0; g &= g - 1) {
                int s = base + Integer.numberOfTrailingZeros(g);
                m.waitArg[s] = allowed;
                m.waitArg2[s] = WgmmaGroups.WAITING;
            }
            m.uniform[warp] = false;
            m.setStatusLanes(warp, group, ThreadStatus.ASYNC_WAIT);
            return;
        }
        // The whole warp met: like bar.warp.sync, each lane's earlier accesses happen before every lane's later ones.
        if (m.race != null) m.race.warpSync(warp, here);
        int waiting = here & ~group;
        for (int g = here; g != 0; g &= g - 1) m.pc[base + Integer.numberOfTrailingZeros(g)]++;
        m.uniform[warp] = false;
        if (waiting != 0) m.setStatusLanes(warp, waiting, ThreadStatus.RUNNABLE);
    }

    /** The instruction for the whole warp; false for a wait that cannot complete yet. */
    private boolean act(Interpreter x, int warp) {
        Machine m = x.machine();
        if (allowed == -2) m.wgmma.fence(warp);
        else if (allowed == -1) m.wgmma.commit(x, warp);
        else return m.wgmma.tryWait(x, warp, allowed);
        return true;
    }

    /**
     * Lanes of {@code warp} exited: lanes waiting at a wgmma.fence/commit_group/wait_group for
     * their warp can never be met (semantics.md section 12), which is reported, not left to hang.
     */
    static void onExit(Interpreter x, int warp, int exitedLanes) {
        Machine m = x.machine();
        int base = warp << 5;
        for (int l = m.liveMask[warp]; l != 0; l &= l - 1) {
            int s = base + Integer.numberOfTrailingZeros(l);
            if (m.status[s] != ThreadStatus.ASYNC_WAIT || m.waitArg2[s] != WgmmaGroups.WAITING || !(x.op(m.pc[s]) instanceof WgmmaGroupOp op)) continue;
            x.report(DiagnosticCode.WARP_SYNC_EXITED_MEMBER, op.insn.mnemonic() + " at " + x.where(op.pc) + " in " + m.warpName(warp)
                    + " waits for the whole warp (.sync.aligned), but lanes 0x" + Integer.toHexString(exitedLanes)
                    + " exited and never arrive (PTX ISA 9.7.15)", new int[] {op.pc},
                    new int[] {s, base + Integer.numberOfTrailingZeros(exitedLanes)}, null);
            return;
        }
    }
}
