package io.barrierscope.exec;

import io.barrierscope.exec.FloatFormat.Round;
import io.barrierscope.exec.MmaOp.Elem;
import io.barrierscope.ptx.Operand;
import io.barrierscope.ptx.ScalarType;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code wgmma.mma_async.sync.aligned.m64nNkK} (PTX ISA 9.7.15.5.2): D = (sa A) * (sb B) + (scale-d ? D : 0)
 * for a warpgroup, the four contiguous warps whose first warp's rank in the CTA is a multiple of
 * 4. A is 64 x K, from registers (the fragment layout of 9.7.15.5.1.1, warp r holding rows
 * 16r..16r+15) or from a shared-memory matrix descriptor; B is K x N from a descriptor
 * ({@link MatrixDescriptor}); D is 64 x N in registers, warp r holding rows 16r..16r+15.
 *
 * <p>Each warp takes part as a warp-collective (all 32 lanes, {@link WarpMatrixOp}); when it does,
 * its accumulator and A registers are read. When the fourth warp of the warpgroup has issued the
 * same instruction the product is formed, reading shared memory; the result lands in the
 * accumulator registers when a {@code wgmma.wait_group} covering its group completes
 * ({@link WgmmaGroups}). Sums are exact and rounded once, as {@link MmaOp} does. The single-bit
 * form computes in {@link WgmmaBitOp}, the sparse form {@code .sp} in {@link WgmmaSparseOp}.
 */
class WgmmaOp extends WarpMatrixOp {
    private static final Pattern SHAPE = Pattern.compile("\\.m64n(\\d+)k(\\d+)");

    final int n;
    final int k;
    final Elem ta;
    final Elem tb;
    final Elem td;
    final boolean satfinite;
    /** Absolute indices of the accumulator registers. */
    final int[] d;
    /** The A fragment registers, or null for A from a descriptor. */
    final Src[] aRegs;
    final int[] aIdx;
    final Src aDesc;
    final Src bDesc;
    final Src scaleD;
    final int scaleA;
    final int scaleB;
    final boolean transA;
    final boolean transB;

    WgmmaOp(CompileContext c, int n, int k, Elem[] t, boolean sat, int[] d, Src[] aRegs, int[] aIdx, Src aDesc, Src bDesc,
            Src scaleD, int[] imm) {
        super(c);
        this.n = n;
        this.k = k;
        this.td = t[0];
        this.ta = t[1];
        this.tb = t[2];
        this.satfinite = sat;
        this.d = d;
        this.aRegs = aRegs;
        this.aIdx = aIdx;
        this.aDesc = aDesc;
        this.bDesc = bDesc;
        this.scaleD = scaleD;
        this.scaleA = imm[0];
        this.scaleB = imm[1];
        this.transA = imm[2] == 1;
        this.transB = imm[3] == 1;
        int[] same = new int[d.length];
        for (int p = 0; p < d.length; p++) for (int j = 0; j < d.length; j++) if (d[j] == d[p]) same[p] = j;
        this.lastSame = same;
    }


    static Op compile(CompileContext c) {
        String mn = c.insn().mnemonic();
        boolean sp = c.has(".sp");
        if (!c.has(".sync") || !c.has(".aligned")) throw c.unsupported("wgmma.mma_async needs .sync.aligned");
        int n = -1;
        int k = -1;
        for (String m : c.insn().modifiers()) {
            Matcher sm = SHAPE.matcher(m);
            if (sm.matches()) {
                n = Integer.parseInt(sm.group(1));
                k = Integer.parseInt(sm.group(2));
            }
        }
        if (n < 0) {
            throw c.unsupported(sp ? "shapes modelled for .sp: .m64nNk16 (.tf32), .m64nNk32 (.f16/.bf16), .m64nNk64 (8-bit types)"
                    : "shapes modelled: .m64nNk8 (.tf32), .m64nNk16 (.f16/.bf16), .m64nNk32 (8-bit types), .m64nNk256 (.b1)");
        }
        List<Elem> ts = new ArrayList<>();
        for (String m : c.insn().modifiers()) if (Elem.of(m) != null) ts.add(Elem.of(m));
        if (ts.size() != 3) throw c.error(mn + " needs three types: .dtype.atype.btype");
        Elem[] t = ts.toArray(new Elem[0]);
        boolean half = t[1] == Elem.F16 || t[1] == Elem.BF16;
        boolean int8 = t[1] == Elem.S8 || t[1] == Elem.U8;
        // A sparse shape's K is twice the dense one's for the same types (9.7.15.6.3): A is stored 64 x K/2.
        int kd = sp ? k / 2 : k;
        boolean ok = switch (t[1]) {
            case F16 -> kd == 16 && t[2] == Elem.F16 && (t[0] == Elem.F32 || t[0] == Elem.F16);
            case BF16 -> kd == 16 && t[2] == Elem.BF16 && t[0] == Elem.F32;
            case TF32 -> kd == 8 && t[2] == Elem.TF32 && t[0] == Elem.F32;
            case E4M3, E5M2 -> kd == 32 && (t[2] == Elem.E4M3 || t[2] == Elem.E5M2) && (t[0] == Elem.F32 || t[0] == Elem.F16);
            case S8, U8 -> kd == 32 && (t[2] == Elem.S8 || t[2] == Elem.U8) && t[0] == Elem.S32;
            case B1 -> !sp && k == 256 && t[2] == Elem.B1 && t[0] == Elem.S32;
            default -> false;
        };
        if (!ok) throw c.unsupported("this shape and type combination is not in the ISA's list");
        boolean bit = t[1] == Elem.B1;
        if (bit && (!c.has(".and") || !c.has(".popc") || c.has(".xor"))) throw c.unsupported("single-bit wgmma is .and.popc only");
        if (!bit && (c.has(".and") || c.has(".xor") || c.has(".popc"))) throw c.error(mn + ": .and/.xor/.popc apply to .b1 wgmma only");
        boolean nOk = int8 || bit ? (n == 8 || n == 16 || n == 24 || (n >= 32 && n <= 256 && n % 16 == 0)) : (n >= 8 && n <= 256 && n % 8 == 0);
        if (!nOk) throw c.unsupported("N = " + n + " is not a valid N for these types");
        boolean sat = c.has(".satfinite");
        if (sat && !int8) throw c.error(mn + ": .satfinite applies to integer wgmma only");
        boolean regA = c.operandCount() > 1 && c.operand(1) instanceof Operand.Vector;
        int imms = half ? (regA ? 3 : 4) : int8 || bit ? 0 : 2;
        int o = sp ? 2 : 0; // sp-meta and sp-sel come between b-desc and scale-d
        c.expectOperands(4 + o + imms, 4 + o + imms);
        int dRegs = t[0] == Elem.F16 ? n / 4 : n / 2;
        List<Operand> dv = MmaOp.vector(c, 0, dRegs);
        int[] d = new int[dRegs];
        for (int i = 0; i < dRegs; i++) {
            d[i] = c.dst(dv.get(i));
            if (d[i] < 0) throw c.error(mn + ": an accumulator register cannot be the sink _");
        }
        Src[] aRegs = null;
        int[] aIdx = null;
        Src aDesc = null;
        if (regA) {
            List<Operand> av = MmaOp.vector(c, 1, 4);
            aRegs = new Src[4];
            aIdx = new int[4];
            for (int i = 0; i < 4; i++) {
                aRegs[i] = c.src(av.get(i), ScalarType.B32);
                aIdx[i] = av.get(i) instanceof Operand.Reg r ? c.regBase + r.reg().index() : -1;
            }
        } else {
            aDesc = c.src(1, ScalarType.B64);
        }
        Src bDesc = c.src(2, ScalarType.B64);
        Src scaleD = c.src(3 + o, ScalarType.PRED);
        int[] imm = {1, 1, 0, 0};
        if (imms > 0) {
            imm[0] = immediate(c, 4 + o, true);
            imm[1] = immediate(c, 5 + o, true);
            if (half && regA) imm[3] = immediate(c, 6 + o, false);
            if (half && !regA) {
                imm[2] = immediate(c, 6 + o, false);
                imm[3] = immediate(c, 7 + o, false);
            }
        }
        if (bit) return new WgmmaBitOp(c, n, t, d, aRegs, aIdx, aDesc, bDesc, scaleD);
        if (sp) return WgmmaSparseOp.of(c, n, k, t, sat, d, aRegs, aIdx, aDesc, bDesc, scaleD, imm);
        return new WgmmaOp(c, n, k, t, sat, d, aRegs, aIdx, aDesc, bDesc, scaleD, imm);
    }

    /** An imm-scale (1 or -1) or imm-trans (0 or 1) operand. */
    private static int immediate(CompileContext c, int i, boolean scale) {
        if (!(c.operand(i) instanceof Operand.Imm im)) {
            throw c.error(c.insn().mnemonic() + ": operand " + (i + 1) + " (" + (scale ? "imm-scale" : "imm-trans") + ") must be an immediate");
        }
        long v = im.value();
        if (scale ? (v != 1 && v != -1) : (v != 0 && v != 1)) {
            throw c.error(c.insn().mnemonic() + ": operand " + (i + 1) + " must be " + (scale ? "1 or -1" : "0 or 1") + ", not " + v);
        }
        return (int) v;
    }

    int elemBytes() { return ta.bits / 8; }

    /** The 8-byte shared-memory words {@link #compute} reads: B's, and A's when A comes from a descriptor. */
    int operandWords() { return ((aRegs == null ? 64 * k : 0) + n * k) * (ta.bits / 8) / 8; }

    /** The accumulator and A registers, made once (read-only). */
    private java.util.BitSet registerSet;
    /** For A from registers: per lane, register and packed element, its index col * 64 + row in warp 0's rows. */
    private int[] aPositions;

    java.util.BitSet registerSet() {
        if (registerSet == null) {
            java.util.BitSet b = new java.util.BitSet();
            for (int r : d) b.set(r);
            if (aIdx != null) for (int r : aIdx) if (r >= 0) b.set(r);
            registerSet = b;
        }
        return registerSet;
    }

    /**
     * Per accumulator register p, the last index j with d[j] == d[p] (p itself unless the vector
     * names a register twice); final, as the op may be shared by machines in several threads.
     */
    private final int[] lastSame;

    int[] lastSame() { return lastSame; }

    private int[] aPositions() {
        if (aPositions == null) {
            int per = 32 / ta.bits;
            int[] p = new int[32 * 4 * per];
            for (int l = 0; l < 32; l++) {
                for (int i = 0; i < 4 * per; i++) {
                    int[] rc = aRowCol(l, i);
                    p[l * 4 * per + i] = rc[1] * 64 + rc[0];
                }
            }
            aPositions = p;
        }
        return aPositions;
    }

    /** Row and column (within the warp's 16 rows) of A register element {@code i} of lane {@code l}; the mma.sync A layouts. */
    int[] aRowCol(int l, int i) { return MmaOp.aRowCol(ta, k, l, i); }

    /** Row (within the warp's 16 rows) and column of accumulator element {@code i} (0..N/2-1) of lane {@code l}. */
    static int[] dRowCol(int l, int i) {
        return new int[] {(l >> 2) + 8 * ((i >> 1) & 1), 8 * (i >> 2) + 2 * (l & 3) + (i & 1)};
    }

    @Override
    protected void run(Machine m, int base) {
        throw new IllegalStateException("wgmma runs through run(Interpreter, int)");
    }

    @Override
    protected void run(Interpreter x, int base) {
        Machine m = x.machine();
        long[] aIn = aRegs == null ? null : new long[32 * 4];
        int scale = 0;
        for (int l = 0; l < 32; l++) {
            int s = base + l;
            if (aIn != null) for (int r = 0; r < 4; r++) aIn[l * 4 + r] = aRegs[r].get(m, s);
            if (scaleD.get(m, s) != 0) scale |= 1 << l;
        }
        long da = aDesc == null ? 0 : aDesc.get(m, base);
        long db = bDesc.get(m, base);
        for (int l = 1; l < 32; l++) {
            if ((aDesc != null && aDesc.get(m, base + l) != da) || bDesc.get(m, base + l) != db) {
                x.report(io.barrierscope.diag.DiagnosticCode.WGMMA_BAD_DESCRIPTOR, "lanes of " + m.warpName(base >> 5) + " pass different"
                        + " matrix descriptors to " + insn.mnemonic() + " at " + x.where(pc) + " (lane 0 and lane " + l + "); a descriptor"
                        + " describes one matrix for the whole warpgroup (PTX ISA 9.7.15.5.1)", new int[] {pc}, new int[] {base + l}, null);
                return;
            }
        }
        int[] meta = metadata(x, base);
        if (meta == REFUSED) return;
        // The accumulator registers are read in join, once it knows which of them an earlier operation in flight feeds.
        m.wgmma.join(x, this, base >> 5, new WgmmaGroups.Part(aIn, scale, da, db, meta));
    }

    /** {@link #metadata}'s answer when it reported a diagnostic: the warp does not join. */
    static final int[] REFUSED = new int[0];

    /** A sparse wgmma's metadata register per lane of warp {@code base / 32} (checked), or null for a dense one. */
    int[] metadata(Interpreter x, int base) {
        return null;
    }

    /**
     * Warp {@code base / 32}'s accumulator registers as this instruction reads them at issue (their
     * 32 bits: every accumulator type is b32, or two f16 in one), register-major (register r of lane l at r * 32 + l: Machine.regs keeps a register's 32 lanes
     * side by side); registers {@code p} with {@code skip[p]} non-null (fed by an earlier operation
     * in flight) are left 0. Null when every register is so fed (the usual chain over K): then
     * nothing is read, and no array is made per warp and operation.
     */
    int[] readAccumulators(Machine m, int base, Object[] skip) {
        boolean any = false;
        for (Object o : skip) any |= o == null;
        if (!any) return null;
        int[] dIn = new int[32 * d.length];
        long[] regs = m.regs;
        int regRow = base * m.regsPerThread;
        for (int r = 0; r < d.length; r++) {
            if (skip[r] != null) continue;
            int from = regRow + (d[r] << 5);
            for (int l = 0; l < 32; l++) dIn[(r << 5) + l] = (int) regs[from + l];
        }
        return dIn;
    }

    /**
     * Forms the product for a warpgroup whose four warps have issued: returns each warp's
     * accumulator registers (their 32 bits, register-major: register r of lane l at r * 32 + l), reading shared
     * memory through {@code reads}. {@code dIn[w]} is warp w's accumulator input (same layout),
     * already the result of any earlier wgmma in flight, or null when its scale-d is false in every
     * lane; it is not changed.
     *
     * <p>A is kept column by column (element (i, p) at p * 64 + i) and B column by column
     * (element (p, c) at c * k + p); D is summed in a 64 x N column-major double array. Each element
     * of D sees the same operations in the same order as a k-long dot product (its start value,
     * then the products p = 0..k-1 added one by one, left to right), so the bits are those of the
     * element-by-element sum, while the inner loop runs over 64 contiguous rows (vectorised by the
     * JIT), eight values of p and two columns of D at a time.
     */
    int[][] compute(Machine m, int slot, WgmmaGroups.Part[] parts, int[][] dIn, WgmmaGroups.Reads reads) {
        Scratch scratch = Scratch.MINE.get();
        double[] feed = scratch.feed; // set by WgmmaGroups.form for this call only
        scratch.feed = null;
        double[] fa = scratch.fa(64 * k); // column-major: element (row i, col p) at p * 64 + i
        double[] fb = scratch.fb(n * k); // column-major: element (row p, col c) at c * k + p
        readA(m, slot, parts, fa, reads);
        loadOperand(m, MatrixDescriptor.decode(parts[0].descB()), n, k, !transB, tb, fb, k, 1, reads, slot);
        int len = d.length;
        if (td == Elem.S32) {
            int[][] out = new int[4][32 * len];
            integer(fa, fb, parts, dIn, out);
            return out;
        }
        boolean f16 = td == Elem.F16;
        int half = n / 2;
        int[] map = DIndex.of(n);
        // f32 sums go to the caller unrounded (PENDING, through scratch.pending); f16 ones are encoded here.
        double[] acc = f16 ? scratch.acc(64 * n) : scratch.fresh(64 * n);
        // The usual chain over K (WgmmaGroups.form): every warp's input is the whole pending result of
        // one earlier operation of this N, scale-d true in every lane. Rounding its sums to f32 gives
        // the values the loop below would decode from that result's bits (a NaN's payload aside, and
        // every NaN result is written as the canonical NaN).
        boolean chained = feed != null && !f16;
        if (chained) {
            for (int j = 0, end = 64 * n; j < end; j++) acc[j] = (float) feed[j];
        }
        for (int w = 0; w < 4 && !chained; w++) {
            int[] in = dIn[w];
            int keepMask = parts[w].scaleD();
            int mo = w * 32 * half;
            if (!f16 && keepMask == -1) {
                // Every lane keeps its f32 accumulators: element i of lane l is at i * 32 + l in both
                // the register-major input and the map, so one loop without per-lane tests.
                for (int j = 0, end = 32 * half; j < end; j++) acc[map[mo + j]] = Float.intBitsToFloat(in[j]);
                continue;
            }
            for (int i = 0; i < half; i++) {
                int src = ((f16 ? i >> 1 : i) << 5);
                int shift = 16 * (i & 1);
                for (int l = 0; l < 32; l++) {
                    int at = map[mo + (i << 5) + l];
                    if ((keepMask & (1 << l)) == 0) acc[at] = 0; // scale-d false: the sum starts at +0
                    else if (f16) acc[at] = td.value((in[src + l] >>> shift) & 0xFFFF);
                    else acc[at] = Float.intBitsToFloat(in[src + l]);
                }
            }
        }
        // scale-a * scale-b * (a * b) is a * (sign * b) exactly: negation commutes with round-to-nearest.
        product(fa, fb, acc, scaleA * scaleB < 0);
        if (!f16) {
            scratch.pending = acc;
            return PENDING;
        }
        int[][] out = new int[4][32 * len];
        for (int w = 0; w < 4; w++) { // f16: two elements to a register
            int[] o = out[w];
            int mo = w * 32 * half;
            for (int i = 0; i < half; i++) {
                int dst = (i >> 1) << 5;
                int shift = 16 * (i & 1);
                for (int l = 0; l < 32; l++) {
                    double v = acc[map[mo + (i << 5) + l]];
                    o[dst + l] |= (int) ((FloatFormat.F16.encode(v, Round.RN, false) & 0xFFFFL) << shift);
                }
            }
        }
        return out;
    }

    /** A, 64 x K, into {@code fa} column by column (element (i, p) at p * 64 + i). */
    void readA(Machine m, int slot, WgmmaGroups.Part[] parts, double[] fa, WgmmaGroups.Reads reads) {
        loadA(m, slot, parts, fa, k, reads);
    }

    /** The A operand as stored, 64 x {@code kA}, from the registers or the descriptor into {@code fa} (column-major). */
    final void loadA(Machine m, int slot, WgmmaGroups.Part[] parts, double[] fa, int kA, WgmmaGroups.Reads reads) {
        if (aRegs != null) {
            int per = 32 / ta.bits;
            int[] pos = aPositions();
            double[] table = Decode.table(ta);
            for (int w = 0; w < 4; w++) {
                int rowOff = 16 * w;
                for (int l = 0; l < 32; l++) {
                    for (int r = 0; r < 4; r++) {
                        long v = parts[w].aIn()[l * 4 + r];
                        for (int j = 0; j < per; j++) {
                            long bits = ta.bits == 32 ? v : (v >>> (j * ta.bits)) & ((1L << ta.bits) - 1);
                            fa[rowOff + pos[(l * 4 + r) * per + j]] = table != null ? table[(int) bits] : ta.value(bits);
                        }
                    }
                }
            }
        } else {
            loadOperand(m, MatrixDescriptor.decode(parts[0].descA()), 64, kA, !transA, ta, fa, 1, 64, reads, slot);
        }
    }

    /**
     * acc += A B (column-major, see {@link #compute}; B negated when {@code negate}): per element,
     * ((acc + a0 b0) + a1 b1) + ..., Java evaluating left to right without reassociating. K is 8,
     * 16, 32 or 64 and N a multiple of 8 for the floating-point types, so blocks of 8 and pairs of columns fit.
     */
    private void product(double[] fa, double[] fb, double[] acc, boolean negate) {
        double s = negate ? -1 : 1;
        for (int c = 0; c < n; c += 2) {
            int co = c * 64;
            int co1 = co + 64;
            int bo = c * k;
            int bo1 = bo + k;
            for (int p = 0; p < k; p += 8) {
                double b0 = s * fb[bo + p], b1 = s * fb[bo + p + 1], b2 = s * fb[bo + p + 2], b3 = s * fb[bo + p + 3];
                double b4 = s * fb[bo + p + 4], b5 = s * fb[bo + p + 5], b6 = s * fb[bo + p + 6], b7 = s * fb[bo + p + 7];
                double c0 = s * fb[bo1 + p], c1 = s * fb[bo1 + p + 1], c2 = s * fb[bo1 + p + 2], c3 = s * fb[bo1 + p + 3];
                double c4 = s * fb[bo1 + p + 4], c5 = s * fb[bo1 + p + 5], c6 = s * fb[bo1 + p + 6], c7 = s * fb[bo1 + p + 7];
                int a0 = p * 64;
                for (int i = 0; i < 64; i++) {
                    double x0 = fa[a0 + i], x1 = fa[a0 + 64 + i], x2 = fa[a0 + 128 + i], x3 = fa[a0 + 192 + i];
                    double x4 = fa[a0 + 256 + i], x5 = fa[a0 + 320 + i], x6 = fa[a0 + 384 + i], x7 = fa[a0 + 448 + i];
                    acc[co + i] = acc[co + i] + x0 * b0 + x1 * b1 + x2 * b2 + x3 * b3 + x4 * b4 + x5 * b5 + x6 * b6 + x7 * b7;
                    acc[co1 + i] = acc[co1 + i] + x0 * c0 + x1 * c1 + x2 * c2 + x3 * c3 + x4 * c4 + x5 * c5 + x6 * c6 + x7 * c7;
                }
            }
        }
    }

    /** {@link #compute}'s answer for f32 accumulators: the unrounded sums are in {@link Scratch#pending}. */
    static final int[][] PENDING = new int[0][];

    /**
     * The f32 result of this operation from its unrounded 64 x N sums ({@link #compute}'s column-major
     * array): per warp, its accumulator registers' bits, register-major.
     */
    int[][] encode(double[] acc) {
        int half = n / 2;
        int[] map = DIndex.of(n);
        int[][] out = new int[4][32 * d.length];
        for (int w = 0; w < 4; w++) {
            int[] o = out[w];
            int mo = w * 32 * half;
            for (int j = 0, end = 32 * half; j < end; j++) o[j] = (int) f32Bits(acc[map[mo + j]]);
        }
        return out;
    }

    /**
     * Working arrays of {@link #compute}, one set per thread (a program's ops may run on several
     * machines in several threads at once); each compute overwrites what it uses before reading it.
     * The f32 sums arrays are handed over: {@link #fresh} gives one to a compute, which hands it to
     * its operation through {@link #pending}; the operation gives it back ({@link #release}, on
     * whatever thread) once it has its result or no longer needs one.
     */
    static final class Scratch {
        static final ThreadLocal<Scratch> MINE = ThreadLocal.withInitial(Scratch::new);

        private double[] fa = new double[0];
        private double[] fb = new double[0];
        private double[] acc = new double[0];
        private final double[][] free = new double[8][];
        private int frees;
        /** The sums of the last compute that answered {@link #PENDING}; taken by the caller at once. */
        double[] pending;
        /** The pending sums of the operation that feeds the next compute in a chain, or null (set just before it). */
        double[] feed;

        double[] fa(int size) { return fa.length >= size ? fa : (fa = new double[size]); }
        double[] fb(int size) { return fb.length >= size ? fb : (fb = new double[size]); }
        double[] acc(int size) { return acc.length >= size ? acc : (acc = new double[size]); }

        /** A sums array of at least {@code size} (contents undefined). */
        double[] fresh(int size) {
            while (frees > 0) {
                double[] a = free[--frees];
                free[frees] = null;
                if (a.length >= size) return a;
            }
            return new double[size];
        }

        /** A sums array no operation holds any more. */
        void release(double[] a) {
            if (frees < free.length) free[frees++] = a;
        }
    }

    /**
     * Per N, where each accumulator element lands in the 64 x N column-major sum: at
     * w * 16N + i * 32 + l, for element i of lane l of warp w, the index col * 64 + row of the ISA's
     * D fragment (row 16w + l/4, +8 for i mod 4 >= 2; column 8(i/4) + 2(l mod 4) + i mod 2).
     */
    private static final class DIndex {
        private static final int[][] BY_N = new int[257][];

        static synchronized int[] of(int n) {
            int[] t = BY_N[n];
            if (t == null) {
                int half = n / 2;
                t = new int[4 * 32 * half];
                for (int w = 0; w < 4; w++) {
                    for (int i = 0; i < half; i++) {
                        for (int l = 0; l < 32; l++) {
                            int[] rc = dRowCol(l, i);
                            t[w * 32 * half + (i << 5) + l] = rc[1] * 64 + 16 * w + rc[0];
                        }
                    }
                }
                BY_N[n] = t;
            }
            return t;
        }
    }

    /** s32 accumulators: exact integer dot products, wrapping modulo 2^32 or clamped by .satfinite. */
    private void integer(double[] fa, double[] fb, WgmmaGroups.Part[] parts, int[][] dIn, int[][] out) {
        for (int w = 0; w < 4; w++) {
            int[] o = out[w];
            int[] in = dIn[w];
            int keepMask = parts[w].scaleD();
            for (int l = 0; l < 32; l++) {
                int rowBase = 16 * w + (l >> 2);
                for (int i = 0; i < n / 2; i++) {
                    int row = rowBase + 8 * ((i >> 1) & 1);
                    int col = 8 * (i >> 2) + 2 * (l & 3) + (i & 1);
                    long acc = (keepMask & (1 << l)) != 0 ? in[(i << 5) + l] : 0;
                    for (int j = 0; j < k; j++) acc += (long) fa[j * 64 + row] * (long) fb[col * k + j];
                    if (satfinite) acc = Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, acc));
                    o[(i << 5) + l] = (int) acc;
                }
            }
        }
    }

    /**
     * Reads a descriptor operand of {@code mnCount} x K elements into
     * {@code out[mn * mnStride + kk * kStride]}, 8 bytes at a time: a core-matrix row is 16
     * contiguous bytes at a 16-byte aligned address (start, LBO and SBO are in 16-byte units and
     * the swizzle permutes 16-byte chunks), along K for a K-major operand and along M/N for an
     * MN-major one.
     */
    private void loadOperand(Machine m, MatrixDescriptor desc, int mnCount, int k, boolean kMajor, Elem t, double[] out, int mnStride,
            int kStride, WgmmaGroups.Reads reads, int slot) {
        int e = t.bits / 8;
        int per = 8 / e;
        long mask = e == 8 ? -1L : (1L << t.bits) - 1;
        double[] table = Decode.table(t);
        int outer = kMajor ? mnCount : k;
        int inner = kMajor ? k : mnCount;
        // Along a word the elements step in the inner dimension; the outer one is fixed per row.
        int innerStride = kMajor ? kStride : mnStride;
        int outerStride = kMajor ? mnStride : kStride;
        // A row of 16 bytes along the inner dimension is contiguous: its second word is 8 bytes past its
        // first, so the address (divisions and the swizzle) is found once per 16 bytes when rows are whole.
        int step = (inner * e) % 16 == 0 ? 2 * per : per;
        for (int o = 0; o < outer; o++) {
            for (int i0 = 0; i0 < inner; i0 += step) {
                long a = kMajor ? desc.address(o, i0, e, true) : desc.address(i0, o, e, false);
                for (int h = 0, at = o * outerStride + i0 * innerStride; h < step; h += per, a += 8, at += per * innerStride) {
                    long word = reads.load8(m, a, slot);
                    for (int j = 0; j < per; j++) {
                        long bits = (word >>> (j * t.bits)) & mask;
                        out[at + j * innerStride] = table != null ? table[(int) bits] : t.value(bits);
                    }
                }
            }
        }
    }

    /**
     * Java's double-to-float narrowing is IEEE round-to-nearest-even (subnormals included), which is
     * what FloatFormat.F32.encode(acc, RN, false) computes; only NaN needs PTX's canonical pattern.
     */
    static long f32Bits(double acc) {
        if (Double.isNaN(acc)) return FloatFormat.F32.canonicalNaN() & 0xFFFFFFFFL;
        return Float.floatToRawIntBits((float) acc) & 0xFFFFFFFFL;
    }

    /** f16, bf16 and the fp8 types decoded once into tables (every bit pattern), so operand tiles are read by lookup. */
    private static final class Decode {
        private static final double[] F16 = build(Elem.F16);
        private static final double[] BF16 = build(Elem.BF16);
        private static final double[] E4M3 = build(Elem.E4M3);
        private static final double[] E5M2 = build(Elem.E5M2);

        private static double[] build(Elem e) {
            double[] t = new double[1 << e.bits];
            for (int b = 0; b < t.length; b++) t[b] = e.value(b);
            return t;
        }

        /** The table for a 16- or 8-bit float type, or null (decoded per element). */
        static double[] table(Elem t) {
            return switch (t) {
                case F16 -> F16;
                case BF16 -> BF16;
                case E4M3 -> E4M3;
                case E5M2 -> E5M2;
                default -> null;
            };
        }
    }
}
