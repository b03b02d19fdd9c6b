package io.barrierscope.exec;

import io.barrierscope.ptx.Operand;
import java.util.List;

/**
 * Per pc, the absolute indices of {@code WgmmaGroups.found}'s registers, in its order: they depend on the
 * program alone, so they are found once per {@link Program} (not per run) and shared by its
 * runs and explore jobs; immutable once made.
 */
final class WgmmaNamedRegisters {
    private static final int[] NONE = new int[0];
    final int[][] byPc;

    WgmmaNamedRegisters(Program p) {
        byPc = new int[p.code.length][];
        int[][] buf = {new int[64]};
        for (int pc = 0; pc < byPc.length; pc++) {
            Op op = p.code[pc];
            int n = absolute(op.insn.operands(), op.regBase, buf, 0);
            if (op.guardReg >= 0) n = add(buf, n, op.guardReg);
            byPc[pc] = n == 0 ? NONE : java.util.Arrays.copyOf(buf[0], n);
        }
    }

    private static int absolute(List<Operand> ops, int base, int[][] buf, int n) {
        for (Operand o : ops) {
            if (o instanceof Operand.Reg r) n = add(buf, n, base + r.reg().index());
            else if (o instanceof Operand.Video v) n = add(buf, n, base + v.reg().reg().index());
            else if (o instanceof Operand.Vector v) n = absolute(v.elements(), base, buf, n);
            else if (o instanceof Operand.ParenList p) n = absolute(p.elements(), base, buf, n);
            else if (o instanceof Operand.Pair p) n = absolute(List.of(p.first(), p.second()), base, buf, n);
            else if (o instanceof Operand.Address a && a.base() != null) n = absolute(List.of(a.base()), base, buf, n);
        }
        return n;
    }

    private static int add(int[][] buf, int n, int v) {
        if (n == buf[0].length) buf[0] = java.util.Arrays.copyOf(buf[0], 2 * n);
        buf[0][n] = v;
        return n + 1;
    }
}
