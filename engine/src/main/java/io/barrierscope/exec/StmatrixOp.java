package io.barrierscope.exec;

import io.barrierscope.ptx.Operand;
import java.util.List;

/**
 * {@code stmatrix.sync.aligned.m8n8.{x1,x2,x4}{.trans}{.shared{::cta}}.b16 [p], r} (PTX ISA
 * 9.7.14.5.16): the inverse of ldmatrix. Lane l's i-th register holds elements (l/4, 2(l%4)) and
 * (l/4, 2(l%4)+1) of matrix i (transposed positions with {@code .trans}); lanes 8i..8i+7 give the
 * addresses of the 16-byte rows of matrix i in shared memory.
 */
final class StmatrixOp extends WarpMatrixOp {
    private final int count;
    private final boolean trans;
    private final int space;
    private final Src address;
    private final Src[] r;

    private StmatrixOp(CompileContext c, int count, boolean trans, int space, Src address, Src[] r) {
        super(c);
        this.count = count;
        this.trans = trans;
        this.space = space;
        this.address = address;
        this.r = r;
    }

    static Op compile(CompileContext c) {
        int n = LdmatrixOp.count(c);
        c.expectOperands(2, 2);
        CompileContext.Addr a = c.address(c.operand(0), LdmatrixOp.space(c));
        List<Operand> rv = MmaOp.vector(c, 1, n);
        Src[] r = new Src[n];
        for (int i = 0; i < n; i++) r[i] = c.src(rv.get(i), io.barrierscope.ptx.ScalarType.B32);
        return new StmatrixOp(c, n, c.has(".trans"), a.space(), a.address(), r);
    }

    @Override
    protected void run(Machine m, int base) {
        for (int i = 0; i < count; i++) {
            int[][] mat = new int[8][8];
            for (int l = 0; l < 32; l++) {
                long v = r[i].get(m, base + l);
                int g = l >> 2;
                int t = l & 3;
                int lo = (int) v & 0xFFFF;
                int hi = (int) (v >>> 16) & 0xFFFF;
                if (trans) {
                    mat[2 * t][g] = lo;
                    mat[2 * t + 1][g] = hi;
                } else {
                    mat[g][2 * t] = lo;
                    mat[g][2 * t + 1] = hi;
                }
            }
            for (int row = 0; row < 8; row++) {
                int slot = base + 8 * i + row;
                long p = LdmatrixOp.rowAddress(m, address, space, base, i, row);
                for (int w = 0; w < 4; w++) {
                    long word = (mat[row][2 * w] & 0xFFFFL) | ((long) (mat[row][2 * w + 1] & 0xFFFF) << 16);
                    m.memory.store(space, p + 4L * w, 4, word, slot);
                }
            }
        }
    }
}
