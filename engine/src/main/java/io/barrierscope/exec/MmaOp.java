package io.barrierscope.exec;

import io.barrierscope.exec.FloatFormat.Round;
import io.barrierscope.ptx.Operand;
import io.barrierscope.ptx.ScalarType;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code mma.sync.aligned.m16n8kK.row.col} (PTX ISA 9.7.14.5.14): D = A * B + C for one warp, with
 * the fragment layouts of 9.7.14.5.x ("Matrix Fragments for mma.m16n8k8/k16/k32"). Lane l has
 * groupID g = l / 4 and threadID_in_group t = l % 4; {@link #aRowCol}, {@link #bRowCol} and
 * {@link #cRowCol} give the matrix element each register element holds. Modelled: m16n8k8 and
 * m16n8k16 with .f16/.bf16, m16n8k4 and m16n8k8 with .tf32, m16n8k16 and m16n8k32 with .s8/.u8
 * (s32 accumulators, optional .satfinite), m16n8k32 with .e4m3/.e5m2; f32 or f16 accumulators. Floating-point
 * products are exact and summed in double precision, rounded once to the accumulator type (the
 * ISA leaves order and internal precision open; any order gives these bits when the sums are
 * exact). Integer sums wrap modulo 2^32 unless .satfinite clamps them.
 */
final class MmaOp extends WarpMatrixOp {
    enum Elem {
        F16(16), BF16(16), TF32(32), S8(8), U8(8), E4M3(8), E5M2(8), F32(32), S32(32), B1(1);
        final int bits;
        Elem(int bits) { this.bits = bits; }

        static Elem of(String mod) {
            return switch (mod) {
                case ".f16" -> F16; case ".bf16" -> BF16; case ".tf32" -> TF32; case ".s8" -> S8; case ".u8" -> U8;
                case ".e4m3" -> E4M3; case ".e5m2" -> E5M2; case ".f32" -> F32; case ".s32" -> S32; case ".b1" -> B1;
                default -> null;
            };
        }

        /** The exact value of one element's bits. */
        double value(long bits) {
            return switch (this) {
                case F16 -> FloatFormat.F16.decode((int) bits);
                case BF16 -> FloatFormat.BF16.decode((int) bits);
                case TF32 -> FloatFormat.TF32.decode((int) bits); // the 13 low bits are not part of a tf32
                case E4M3 -> FloatFormat.E4M3.decode((int) bits);
                case E5M2 -> FloatFormat.E5M2.decode((int) bits);
                case F32 -> Float.intBitsToFloat((int) bits);
                case S8 -> (byte) bits;
                case U8 -> bits & 0xFF;
                case S32 -> (int) bits;
                case B1 -> bits & 1;
            };
        }
    }

    final int k;
    final Elem ta;
    final Elem tb;
    final Elem tc;
    final Elem td;
    private final boolean satfinite;
    private final int[] d;
    private final Src[] a;
    private final Src[] b;
    private final Src[] c;

    private MmaOp(CompileContext cc, int k, Elem[] types, boolean satfinite, int[] d, Src[] a, Src[] b, Src[] c) {
        super(cc);
        this.k = k;
        this.td = types[0];
        this.ta = types[1];
        this.tb = types[2];
        this.tc = types[3];
        this.satfinite = satfinite;
        this.d = d;
        this.a = a;
        this.b = b;
        this.c = c;
    }

    static Op compile(CompileContext c) {
        String mn = c.insn().mnemonic();
        if (!c.has(".sync") || !c.has(".aligned")) throw c.unsupported("mma needs .sync.aligned");
        if (c.has(".m8n8k4") && c.has(".f64")) return MmaF64Op.compile(c);
        int k = c.has(".m16n8k4") ? 4 : c.has(".m16n8k8") ? 8 : c.has(".m16n8k16") ? 16 : c.has(".m16n8k32") ? 32 : -1;
        if (k < 0) throw c.unsupported("shapes modelled: m16n8k4, m16n8k8, m16n8k16, m16n8k32");
        if (!c.has(".row") || !c.has(".col")) throw c.unsupported("these shapes take .row.col only");
        List<Elem> ts = new ArrayList<>();
        for (String m : c.insn().modifiers()) if (Elem.of(m) != null) ts.add(Elem.of(m));
        if (ts.size() != 4) throw c.error(mn + " needs four types: .dtype.atype.btype.ctype");
        Elem[] t = ts.toArray(new Elem[0]);
        Elem ta = t[1];
        boolean half = ta == Elem.F16 || ta == Elem.BF16;
        boolean int8 = ta == Elem.S8 || ta == Elem.U8;
        boolean fp8 = ta == Elem.E4M3 || ta == Elem.E5M2;
        boolean ok = switch (ta) {
            case F16 -> (k == 8 || k == 16) && t[2] == Elem.F16 && (t[0] == Elem.F32 || t[0] == Elem.F16) && (t[3] == Elem.F32 || t[3] == Elem.F16);
            case BF16 -> (k == 8 || k == 16) && t[2] == Elem.BF16 && t[0] == Elem.F32 && t[3] == Elem.F32;
            case TF32 -> (k == 4 || k == 8) && t[2] == Elem.TF32 && t[0] == Elem.F32 && t[3] == Elem.F32;
            case S8, U8 -> (k == 16 || k == 32) && (t[2] == Elem.S8 || t[2] == Elem.U8) && t[0] == Elem.S32 && t[3] == Elem.S32;
            case E4M3, E5M2 -> k == 32 && (t[2] == Elem.E4M3 || t[2] == Elem.E5M2) && (t[0] == Elem.F32 || t[0] == Elem.F16)
                    && t[3] == t[0];
            default -> false;
        };
        if (!ok) throw c.unsupported("this shape and type combination is not modelled");
        boolean sat = c.has(".satfinite");
        if (sat && !int8) throw c.unsupported(".satfinite is modelled for integer mma only");
        int aRegs = half ? k / 4 : ta == Elem.TF32 ? k / 2 : k / 8;
        int bRegs = half ? k / 8 : ta == Elem.TF32 ? k / 4 : k / 16;
        int cRegs = t[3] == Elem.F16 ? 2 : 4;
        int dRegs = t[0] == Elem.F16 ? 2 : 4;
        c.expectOperands(4, 4);
        return new MmaOp(c, k, t, sat, dsts(c, 0, dRegs), srcs(c, 1, aRegs), srcs(c, 2, bRegs), srcs(c, 3, cRegs));
    }


    static List<Operand> vector(CompileContext c, int i, int n) {
        Operand o = c.operand(i);
        List<Operand> el = o instanceof Operand.Vector v ? v.elements() : List.of(o);
        if (el.size() != n) throw c.error(c.insn().mnemonic() + ": operand " + (i + 1) + " needs " + n + " registers, found " + el.size());
        return el;
    }

    /** The {@code n} destination registers of fragment operand {@code i}. */
    static int[] dsts(CompileContext c, int i, int n) {
        List<Operand> el = vector(c, i, n);
        int[] d = new int[n];
        for (int j = 0; j < n; j++) d[j] = c.dst(el.get(j));
        return d;
    }

    /** The {@code n} 32-bit source registers of fragment operand {@code i}. */
    static Src[] srcs(CompileContext c, int i, int n) {
        List<Operand> el = vector(c, i, n);
        Src[] s = new Src[n];
        for (int j = 0; j < n; j++) s[j] = c.src(el.get(j), ScalarType.B32);
        return s;
    }

    /** Row and column of A element {@code i} of lane {@code l} (PTX ISA 9.7.14.5.x, fragments of A). */
    static int[] aRowCol(Elem t, int k, int l, int i) {
        int g = l >> 2;
        int tg = l & 3;
        if (t.bits == 16) return k == 16 ? new int[] {g + 8 * ((i >> 1) & 1), 2 * tg + (i & 1) + 8 * (i >> 2)}
                : new int[] {g + 8 * (i >> 1), 2 * tg + (i & 1)};
        if (t == Elem.TF32) return new int[] {g + 8 * (i & 1), tg + 4 * (i >> 1)}; // k4 holds only i = 0, 1
        if (k == 16) return new int[] {g + 8 * (i >> 2), 4 * tg + (i & 3)};
        return new int[] {g + 8 * ((i >> 2) & 1), 4 * tg + (i & 3) + 16 * (i >> 3)};
    }

    /** Row (k) and column (n) of B element {@code i} of lane {@code l}. */
    static int[] bRowCol(Elem t, int k, int l, int i) {
        int g = l >> 2;
        int tg = l & 3;
        if (t.bits == 16) return new int[] {2 * tg + (i & 1) + 8 * (i >> 1), g};
        if (t == Elem.TF32) return new int[] {tg + 4 * i, g};
        return new int[] {4 * tg + (i & 3) + 16 * (i >> 2), g};
    }

    /** Row and column of accumulator element {@code i} (0..3) of lane {@code l}. */
    static int[] cRowCol(int l, int i) {
        return new int[] {(l >> 2) + 8 * (i >> 1), 2 * (l & 3) + (i & 1)};
    }

    @Override
    protected void run(Machine m, int base) {
        double[][] fa = new double[16][k];
        double[][] fb = new double[k][8];
        double[][] fc = new double[16][8];
        int perA = 32 / ta.bits;
        int perB = 32 / tb.bits;
        for (int l = 0; l < 32; l++) {
            int s = base + l;
            for (int r = 0; r < a.length; r++) {
                long v = a[r].get(m, s);
                for (int j = 0; j < perA; j++) {
                    int[] rc = aRowCol(ta, k, l, r * perA + j);
                    fa[rc[0]][rc[1]] = ta.value(ta.bits == 32 ? v : (v >>> (j * ta.bits)) & ((1L << ta.bits) - 1));
                }
            }
            for (int r = 0; r < b.length; r++) {
                long v = b[r].get(m, s);
                for (int j = 0; j < perB; j++) {
                    int[] rc = bRowCol(tb, k, l, r * perB + j);
                    fb[rc[0]][rc[1]] = tb.value(tb.bits == 32 ? v : (v >>> (j * tb.bits)) & ((1L << tb.bits) - 1));
                }
            }
            for (int i = 0; i < 4; i++) {
                int[] rc = cRowCol(l, i);
                long v = tc == Elem.F16 ? c[i >> 1].get(m, s) >>> (16 * (i & 1)) & 0xFFFF : c[i].get(m, s);
                fc[rc[0]][rc[1]] = tc.value(v);
            }
        }
        for (int l = 0; l < 32; l++) {
            long[] out = new long[d.length];
            for (int i = 0; i < 4; i++) {
                int[] rc = cRowCol(l, i);
                long bits = element(fa, fb, fc, rc[0], rc[1]);
                if (td == Elem.F16) out[i >> 1] |= bits << (16 * (i & 1));
                else out[i] = bits;
            }
            for (int r = 0; r < d.length; r++) if (d[r] >= 0) m.setReg(base + l, d[r], out[r]);
        }
    }

    private long element(double[][] fa, double[][] fb, double[][] fc, int row, int col) {
        if (td == Elem.S32) {
            long acc = (long) fc[row][col];
            for (int j = 0; j < k; j++) acc += (long) fa[row][j] * (long) fb[j][col];
            if (satfinite) acc = Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, acc));
            return acc & 0xFFFFFFFFL;
        }
        double acc = fc[row][col];
        for (int j = 0; j < k; j++) acc += fa[row][j] * fb[j][col];
        if (td == Elem.F16) return FloatFormat.F16.encode(acc, Round.RN, false) & 0xFFFFL;
        return FloatFormat.F32.encode(acc, Round.RN, false) & 0xFFFFFFFFL;
    }
}
