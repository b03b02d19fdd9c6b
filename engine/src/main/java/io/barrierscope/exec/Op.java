package io.barrierscope.exec;

import io.barrierscope.ptx.Instruction;

/**
 * A compiled instruction. The interpreter evaluates the guard, then calls {@link #execute} with the
 * convergence group and the lanes whose guard is true. {@code execute} must leave every lane of
 * the group with its PC advanced or its status changed.
 */
public abstract class Op {
    public Instruction insn;
    /** Global PC of this op. */
    public int pc;
    /** Absolute register index of the guard predicate, or -1. */
    public int guardReg = -1;
    public boolean guardNegated;
    /** Absolute index of the function's register 0 (registers named by {@code insn} are relative to it). */
    public int regBase;

    /** True for ops that synchronize with other threads (barriers, warp .sync ops); the adversarial policy delays them. */
    public boolean isSynchronizing() { return false; }

    /**
     * Whether executing this changes state other warps can observe that the memory-model hook does
     * not hear of (setmaxnreg's register pool): exploration's partial-order reduction then never
     * treats it as independent of another step.
     */
    public boolean touchesStateOutsideTheHook() { return false; }

    public abstract void execute(Interpreter x, int warp, int group, int active);

    /** The global PC a branch jumps to, or -1 for an instruction that is not a direct branch. */
    public int branchTarget() { return -1; }

    /** {@link #flow}: control goes on to the next instruction. */
    public static final int FLOW_NEXT = 0;
    /** {@link #flow}: bra, to {@link #branchTarget} (and the next instruction when guarded). */
    public static final int FLOW_BRANCH = 1;
    /** {@link #flow}: ret, exit or trap: control leaves the function (stays only when guarded off). */
    public static final int FLOW_LEAVE = 2;
    /** {@link #flow}: call: another function runs before control comes back. */
    public static final int FLOW_CALL = 3;

    /**
     * How control leaves this op, for static analyses of the compiled code (no opcode strings needed).
     * A direct branch is known by its {@link #branchTarget}, so only leaving ops and calls override this.
     */
    public int flow() { return branchTarget() >= 0 ? FLOW_BRANCH : FLOW_NEXT; }

    /** Reports thread {@code s}'s memory fault in this instruction (the lane loops stop at the first). */
    protected final void reportLaneFault(Interpreter x, int s, MemoryFault f) {
        x.report(f.code(), x.machine().threadName(s) + ": " + f.getMessage() + " in " + insn.mnemonic() + " at " + x.where(pc),
                new int[] {pc}, new int[] {s}, null);
    }

    /** Advances every lane of {@code group} to the next instruction. */
    protected static void advance(Machine m, int warp, int group) {
        if (group == 0) return; // nothing moves, so a converged warp stays converged
        int base = warp << 5;
        int[] pc = m.pc;
        if (group != m.existMask[warp]) m.uniform[warp] = false;
        if (group == -1) {
            for (int i = base; i < base + 32; i++) pc[i]++;
            return;
        }
        for (int g = group; g != 0; g &= g - 1) {
            pc[base + Integer.numberOfTrailingZeros(g)]++;
        }
    }
}
