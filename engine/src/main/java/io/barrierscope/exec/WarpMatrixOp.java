package io.barrierscope.exec;

import io.barrierscope.diag.DiagnosticCode;
import io.barrierscope.sync.WarpSyncOp;

/**
 * A warp-collective {@code .sync.aligned} matrix instruction (mma.sync, ldmatrix, stmatrix,
 * movmatrix; PTX ISA 9.7.14.5): every lane of the warp must execute the same instruction
 * together. Lanes wait for each other as for any warp {@code .sync} instruction (semantics.md
 * section 4) with the full mask; a warp with fewer than 32 lanes (a partial last warp) is a
 * diagnostic, as is an exited lane or lanes meeting at a different instruction.
 */
public abstract class WarpMatrixOp extends WarpSyncOp {
    protected WarpMatrixOp(CompileContext c) {
        // The same instruction, not only the same kind: .aligned requires it.
        super(Src.imm(0xFFFFFFFFL), c.insn().mnemonic() + "@" + c.insn().pos());
    }

    @Override
    protected final boolean requiresAllMembers() { return true; }

    /**
     * The lanes wait for each other but no memory is ordered between them: the ISA says only that
     * the thread waits (".sync"), and gives the ordering sentence to bar.warp.sync alone (9.7.13.2;
     * semantics.md section 8).
     */
    @Override
    protected final boolean ordersMemory() { return false; }

    @Override
    protected final void complete(Interpreter x, int warp, int members) {
        Machine m = x.machine();
        int base = warp << 5;
        if (members != -1) {
            x.report(DiagnosticCode.WARP_COLLECTIVE_PARTIAL, insn.mnemonic() + " at " + x.where(pc) + " in " + m.warpName(warp)
                    + " is executed by lanes 0x" + Integer.toHexString(members) + " only; a .sync.aligned matrix instruction needs"
                    + " all 32 lanes of the warp (PTX ISA 9.7.14.5)", new int[] {pc},
                    new int[] {base + Integer.numberOfTrailingZeros(members)}, null);
            return;
        }
        try {
            run(x, base);
        } catch (MemoryFault f) {
            x.report(f.code(), f.getMessage() + " in " + insn.mnemonic() + " at " + x.where(pc) + " (" + m.warpName(warp) + ")",
                    new int[] {pc}, new int[] {base}, null);
        }
    }

    /** Executes for the whole warp, lanes {@code base}..{@code base + 31}. */
    protected abstract void run(Machine m, int base);

    /** As {@link #run(Machine, int)}, for an instruction that also reports or wakes other warps (wgmma). */
    protected void run(Interpreter x, int base) { run(x.machine(), base); }
}
