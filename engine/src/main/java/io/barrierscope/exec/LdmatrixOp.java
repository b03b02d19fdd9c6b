package io.barrierscope.exec;

import io.barrierscope.diag.DiagnosticCode;
import io.barrierscope.ptx.Operand;
import java.util.List;

/**
 * {@code ldmatrix.sync.aligned.m8n8.{x1,x2,x4}{.trans}{.shared{::cta}}.b16 d, [p]} (PTX ISA
 * 9.7.14.5.15): the warp loads one, two or four 8x8 matrices of 16-bit elements from shared
 * memory. Lanes 8i..8i+7 give the addresses of the eight 16-byte rows of matrix i; lane l then
 * holds in its i-th register the elements (l/4, 2(l%4)) and (l/4, 2(l%4)+1) of matrix i (low
 * half first), or with {@code .trans} the elements (2(l%4), l/4) and (2(l%4)+1, l/4).
 */
final class LdmatrixOp extends WarpMatrixOp {
    private final int count;
    private final boolean trans;
    private final int space;
    private final Src address;
    private final int[] d;

    private LdmatrixOp(CompileContext c, int count, boolean trans, int space, Src address, int[] d) {
        super(c);
        this.count = count;
        this.trans = trans;
        this.space = space;
        this.address = address;
        this.d = d;
    }

    /** Shape and count of an ldmatrix/stmatrix, or an error naming what is not modelled. */
    static int count(CompileContext c) {
        if (!c.has(".sync") || !c.has(".aligned")) throw c.unsupported("needs .sync.aligned");
        if (!c.has(".m8n8") || !c.has(".b16")) throw c.unsupported("only the .m8n8 shape with .b16 elements is modelled");
        int n = c.has(".x1") ? 1 : c.has(".x2") ? 2 : c.has(".x4") ? 4 : -1;
        if (n < 0) throw c.unsupported("needs .x1, .x2 or .x4");
        return n;
    }


    /** The space of the row addresses: .shared if named, else generic (which must point into shared memory). */
    static int space(CompileContext c) {
        return c.spaceOf() == Space.SHARED ? Space.SHARED : Space.GENERIC;
    }

    static Op compile(CompileContext c) {
        int n = count(c);
        c.expectOperands(2, 2);
        List<Operand> dv = MmaOp.vector(c, 0, n);
        int[] d = new int[n];
        for (int i = 0; i < n; i++) d[i] = c.dst(dv.get(i));
        CompileContext.Addr a = c.address(c.operand(1), space(c));
        return new LdmatrixOp(c, n, c.has(".trans"), a.space(), a.address(), d);
    }

    /** The address of row {@code r} of matrix {@code i}, checked to be 16-byte aligned. */
    static long rowAddress(Machine m, Src address, int space, int base, int i, int r) {
        long p = address.get(m, base + 8 * i + r);
        if ((p & 15) != 0) {
            throw new MemoryFault(DiagnosticCode.MISALIGNED_ACCESS, p, "row " + r + " of matrix " + i + " (address from lane "
                    + (8 * i + r) + ") at 0x" + Long.toHexString(p) + " is not 16-byte aligned");
        }
        return p;
    }

    @Override
    protected void run(Machine m, int base) {
        int[][] mat = new int[8][8];
        long[] out = new long[32 * count];
        for (int i = 0; i < count; i++) {
            for (int r = 0; r < 8; r++) {
                int slot = base + 8 * i + r;
                long p = rowAddress(m, address, space, base, i, r);
                for (int w = 0; w < 4; w++) {
                    long word = m.memory.load(space, p + 4L * w, 4, slot);
                    mat[r][2 * w] = (int) word & 0xFFFF;
                    mat[r][2 * w + 1] = (int) (word >>> 16) & 0xFFFF;
                }
            }
            for (int l = 0; l < 32; l++) {
                int g = l >> 2;
                int t = l & 3;
                long lo = trans ? mat[2 * t][g] : mat[g][2 * t];
                long hi = trans ? mat[2 * t + 1][g] : mat[g][2 * t + 1];
                out[32 * i + l] = lo | (hi << 16);
            }
        }
        for (int i = 0; i < count; i++) {
            if (d[i] < 0) continue;
            for (int l = 0; l < 32; l++) m.setReg(base + l, d[i], out[32 * i + l]);
        }
    }
}
