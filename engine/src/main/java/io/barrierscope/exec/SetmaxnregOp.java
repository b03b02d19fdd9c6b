package io.barrierscope.exec;

import io.barrierscope.diag.DiagnosticCode;
import io.barrierscope.ptx.Operand;

/**
 * {@code setmaxnreg.{inc,dec}.sync.aligned.u32 imm-reg-count} (PTX ISA 9.7.19.5). {@code .sync}:
 * each lane waits until the whole warp executes the same setmaxnreg (as at every
 * {@code .sync.aligned} instruction, semantics.md section 12); then the warp's instruction is
 * checked against the rules in {@link RegisterPool} and, for {@code .inc}, blocks until the CTA's
 * pool holds the registers it asks for. A {@code .dec} gives registers back and wakes waiting
 * warps of its CTA, in warp order.
 */
final class SetmaxnregOp extends Op {
    final boolean inc;
    final int regs;

    private SetmaxnregOp(boolean inc, int regs) {
        this.inc = inc;
        this.regs = regs;
    }

    static Op compile(CompileContext c) {
        if (!c.has(".sync") || !c.has(".aligned")) {
            throw c.error(c.insn().mnemonic() + " needs .sync.aligned (PTX ISA 9.7.19.5)");
        }
        boolean inc = c.has(".inc");
        if (inc == c.has(".dec")) throw c.error(c.insn().mnemonic() + " needs exactly one of .inc and .dec (PTX ISA 9.7.19.5)");
        if (!c.has(".u32")) throw c.error(c.insn().mnemonic() + " needs type .u32 (PTX ISA 9.7.19.5)");
        c.expectOperands(1, 1);
        if (!(c.operand(0) instanceof Operand.Imm im) || im.value() < 0 || im.value() > Integer.MAX_VALUE) {
            throw c.error(c.insn().mnemonic() + " takes an integer constant imm-reg-count (PTX ISA 9.7.19.5)");
        }
        return new SetmaxnregOp(inc, (int) im.value());
    }

    @Override
    public boolean isSynchronizing() { return true; }

    /** The CTA's register pool: one warp's decrease or increase decides whether another's increase blocks. */
    @Override
    public boolean touchesStateOutsideTheHook() { return true; }

    private static final AlignedMeeting.Words WORDS = new AlignedMeeting.Words(
            "; .aligned: all threads must execute the same setmaxnreg (PTX ISA 9.7.19.5)", ".sync", "PTX ISA 9.7.19.5",
            "all threads of the warp must execute the same setmaxnreg (PTX ISA 9.7.19.5)");

    @Override
    public void execute(Interpreter x, int warp, int group, int active) {
        Machine m = x.machine();
        if (active == 0) {
            advance(m, warp, group); // a guard false for every lane: not executed (the warpgroup rule sees it)
            return;
        }
        int base = warp << 5;
        int here = AlignedMeeting.lanesHere(x, this, warp, group, active, RegisterPool.REGISTERS, WORDS);
        if (here == 0) return;
        if (here == m.existMask[warp]) {
            if (!m.registers.admit(x, m, warp, this)) return;
            if (m.race != null) m.race.warpSync(warp, here);
            if (m.registers.tryGrant(m, warp, this)) {
                pass(m, warp, here, here & ~group);
                if (!inc) wake(x, m.ctaOfWarp(warp));
                return;
            }
        }
        for (int g = group; g != 0; g &= g - 1) {
            int s = base + Integer.numberOfTrailingZeros(g);
            m.waitArg[s] = regs;
            m.waitArg2[s] = RegisterPool.REGISTERS;
        }
        m.uniform[warp] = false;
        m.setStatusLanes(warp, group, ThreadStatus.ASYNC_WAIT);
    }

    private static void pass(Machine m, int warp, int lanes, int waiting) {
        int base = warp << 5;
        for (int g = lanes; g != 0; g &= g - 1) m.pc[base + Integer.numberOfTrailingZeros(g)]++;
        m.uniform[warp] = false;
        if (waiting != 0) m.setStatusLanes(warp, waiting, ThreadStatus.RUNNABLE);
    }

    /** Registers came back to a CTA's pool: admitted warps waiting in setmaxnreg.inc get them if they fit, in warp order. */
    private static void wake(Interpreter x, int cta) {
        Machine m = x.machine();
        for (int w = m.firstWarpOfCta(cta); w < m.firstWarpOfCta(cta) + m.warpsPerCta; w++) {
            if (!m.registers.pending(w)) continue;
            SetmaxnregOp op = (SetmaxnregOp) x.op(m.pc[w << 5]);
            if (m.registers.tryGrant(m, w, op)) pass(m, w, m.existMask[w], m.existMask[w]);
        }
    }

    /**
     * Lanes of {@code warp} exited: lanes waiting at a setmaxnreg for their warp can never be met
     * (semantics.md section 12), which is reported, not left to hang; a warp gone for good that
     * skipped a setmaxnreg of its warpgroup is reported too.
     */
    static void onExit(Interpreter x, int warp, int exitedLanes) {
        Machine m = x.machine();
        int base = warp << 5;
        for (int l = m.liveMask[warp]; l != 0; l &= l - 1) {
            int s = base + Integer.numberOfTrailingZeros(l);
            if (m.status[s] != ThreadStatus.ASYNC_WAIT || m.waitArg2[s] != RegisterPool.REGISTERS || !(x.op(m.pc[s]) instanceof SetmaxnregOp op)) continue;
            x.report(DiagnosticCode.WARP_SYNC_EXITED_MEMBER, op.insn.mnemonic() + " at " + x.where(op.pc) + " in " + m.warpName(warp)
                    + " waits for the whole warp (.sync), but lanes 0x" + Integer.toHexString(exitedLanes)
                    + " exited and never arrive (PTX ISA 9.7.19.5)", new int[] {op.pc},
                    new int[] {s, base + Integer.numberOfTrailingZeros(exitedLanes)}, null);
            return;
        }
        m.registers.onWarpExit(x, m, warp);
    }
}
