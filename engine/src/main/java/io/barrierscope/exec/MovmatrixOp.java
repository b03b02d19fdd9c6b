package io.barrierscope.exec;

/**
 * {@code movmatrix.sync.aligned.m8n8.trans.b16 d, a} (PTX ISA 9.7.14.5.17): transposes an 8x8
 * matrix of 16-bit elements held across the warp in the ldmatrix fragment layout: lane l's
 * {@code a} holds (l/4, 2(l%4)) and (l/4, 2(l%4)+1); its {@code d} receives (2(l%4), l/4) and
 * (2(l%4)+1, l/4).
 */
final class MovmatrixOp extends WarpMatrixOp {
    private final int d;
    private final Src a;

    private MovmatrixOp(CompileContext c, int d, Src a) {
        super(c);
        this.d = d;
        this.a = a;
    }

    static Op compile(CompileContext c) {
        if (!c.has(".sync") || !c.has(".aligned") || !c.has(".m8n8") || !c.has(".trans") || !c.has(".b16")) {
            throw c.unsupported("the form is movmatrix.sync.aligned.m8n8.trans.b16");
        }
        c.expectOperands(2, 2);
        return new MovmatrixOp(c, c.dst(0), c.src(1, io.barrierscope.ptx.ScalarType.B32));
    }

    @Override
    protected void run(Machine m, int base) {
        int[][] mat = new int[8][8];
        for (int l = 0; l < 32; l++) {
            long v = a.get(m, base + l);
            mat[l >> 2][2 * (l & 3)] = (int) v & 0xFFFF;
            mat[l >> 2][2 * (l & 3) + 1] = (int) (v >>> 16) & 0xFFFF;
        }
        if (d < 0) return;
        for (int l = 0; l < 32; l++) {
            int g = l >> 2;
            int t = l & 3;
            m.setReg(base + l, d, (mat[2 * t][g] & 0xFFFFL) | ((long) (mat[2 * t + 1][g] & 0xFFFF) << 16));
        }
    }
}
