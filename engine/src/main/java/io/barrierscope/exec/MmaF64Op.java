package io.barrierscope.exec;

import io.barrierscope.ptx.ScalarType;
import java.math.BigDecimal;

/**
 * {@code mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {d0, d1}, {a0}, {b0}, {c0, c1}} (PTX ISA
 * 9.7.14.5.14, fragments for mma.m8n8k4 with .f64): lane l (groupID g = l / 4, threadID_in_group
 * t = l % 4) holds A(g, t), B(t, g), and C/D(g, 2t), (g, 2t+1). **Our decision:** each D element is
 * the exact A·B + C rounded once to nearest (the ISA does not fix the order or intermediate
 * rounding of the four products).
 */
final class MmaF64Op extends WarpMatrixOp {
    private final int[] d;
    private final Src a;
    private final Src b;
    private final Src[] c;

    private MmaF64Op(CompileContext cc, int[] d, Src a, Src b, Src[] c) {
        super(cc);
        this.d = d;
        this.a = a;
        this.b = b;
        this.c = c;
    }

    static Op compile(CompileContext c) {
        if (!c.has(".row") || !c.has(".col")) throw c.error("unsupported instruction " + c.insn().mnemonic() + " (m8n8k4 .f64 takes .row.col)");
        for (String m : c.insn().modifiers()) {
            if (m.startsWith(".r") && !m.equals(".row") || m.equals(".satfinite")) {
                throw c.error("unsupported instruction " + c.insn().mnemonic() + " (" + m + " is not modelled)");
            }
        }
        c.expectOperands(4, 4);
        var dv = MmaOp.vector(c, 0, 2);
        var cv = MmaOp.vector(c, 3, 2);
        return new MmaF64Op(c, new int[] {c.dst(dv.get(0)), c.dst(dv.get(1))}, c.src(MmaOp.vector(c, 1, 1).get(0), ScalarType.F64),
                c.src(MmaOp.vector(c, 2, 1).get(0), ScalarType.F64),
                new Src[] {c.src(cv.get(0), ScalarType.F64), c.src(cv.get(1), ScalarType.F64)});
    }

    @Override
    protected void run(Machine m, int base) {
        double[][] fa = new double[8][4];
        double[][] fb = new double[4][8];
        double[][] fc = new double[8][8];
        for (int l = 0; l < 32; l++) {
            int g = l >> 2;
            int t = l & 3;
            fa[g][t] = Values.f64(a.get(m, base + l));
            fb[t][g] = Values.f64(b.get(m, base + l));
            fc[g][2 * t] = Values.f64(c[0].get(m, base + l));
            fc[g][2 * t + 1] = Values.f64(c[1].get(m, base + l));
        }
        for (int l = 0; l < 32; l++) {
            int g = l >> 2;
            int t = l & 3;
            for (int i = 0; i < 2; i++) {
                if (d[i] >= 0) m.setReg(base + l, d[i], Values.arithBits(element(fa, fb, fc, g, 2 * t + i)));
            }
        }
    }

    private static double element(double[][] fa, double[][] fb, double[][] fc, int row, int col) {
        double ieee = fc[row][col];
        boolean finite = Double.isFinite(ieee);
        boolean allZero = ieee == 0;
        for (int j = 0; j < 4; j++) {
            double p = fa[row][j] * fb[j][col];
            ieee += p;
            finite &= Double.isFinite(fa[row][j]) && Double.isFinite(fb[j][col]);
            allZero &= p == 0 && fa[row][j] * 0 == 0 && fb[j][col] * 0 == 0;
        }
        if (!finite) return ieee; // infinities and NaN as IEEE arithmetic gives them
        BigDecimal s = new BigDecimal(fc[row][col]);
        for (int j = 0; j < 4; j++) s = s.add(new BigDecimal(fa[row][j]).multiply(new BigDecimal(fb[j][col])));
        if (s.signum() == 0) return allZero ? ieee : 0.0; // zeros keep IEEE's sign rule; cancellation gives +0
        return s.doubleValue(); // correctly rounded to nearest (overflow to infinity)
    }
}
