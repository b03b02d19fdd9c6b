package io.barrierscope.exec;

import io.barrierscope.check.DiagnosticCode;
import io.barrierscope.ptx.Operand;

/**
 * {@code wgmma.commit_group.sync.aligned} (PTX ISA 9.7.15.7) and {@code wgmma.wait_group.sync.aligned N}
 * (9.7.15.8), per warp ({@link WgmmaGroups}). Both are {@code .aligned}: the whole warp executes
 * them together, so lanes of a warp meeting them apart (or a warp with exited lanes) are
 * {@code warp-collective-partial}. A wait whose groups are not formed yet, because a warp of the
 * warpgroup has not issued one of its operations, suspends the warp until it has.
 */
final class WgmmaGroupOp extends Op {
    /** Groups that may stay pending, or -1 for commit_group. */
    private final int allowed;

    private WgmmaGroupOp(int allowed) { this.allowed = allowed; }

    static Op compile(CompileContext c) {
        if (!c.has(".sync") || !c.has(".aligned")) throw c.error("unsupported instruction " + c.insn().mnemonic() + " (needs .sync.aligned)");
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

    @Override
    public void execute(Interpreter x, int warp, int group, int active) {
        Machine m = x.machine();
        if (active == 0) {
            advance(m, warp, group); // a guard false for every lane: not executed
            return;
        }
        if (active != group || group != m.existMask[warp]) {
            x.report(DiagnosticCode.WARP_COLLECTIVE_PARTIAL, insn.mnemonic() + " at " + x.where(pc) + " in " + m.warpName(warp)
                    + " is executed by lanes 0x" + Integer.toHexString(active) + " of 0x" + Integer.toHexString(m.existMask[warp])
                    + " together; a .sync.aligned wgmma instruction needs the whole warp (PTX ISA 9.7.15)", new int[] {pc},
                    new int[] {(warp << 5) + Integer.numberOfTrailingZeros(group)}, null);
            return;
        }
        if (allowed < 0) {
            m.wgmma.commit(warp);
            advance(m, warp, group);
            return;
        }
        if (m.wgmma.tryWait(x, warp, allowed)) {
            advance(m, warp, group);
            return;
        }
        if (x.finished()) return;
        int base = warp << 5;
        for (int g = group; g != 0; g &= g - 1) {
            int s = base + Integer.numberOfTrailingZeros(g);
            m.waitArg[s] = allowed;
            m.waitArg2[s] = WgmmaGroups.WAITING;
        }
        m.uniform[warp] = false;
        m.setStatusLanes(warp, group, ThreadStatus.ASYNC_WAIT);
    }
}
