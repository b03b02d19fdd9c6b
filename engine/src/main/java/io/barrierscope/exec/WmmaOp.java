package io.barrierscope.exec;

import io.barrierscope.diag.DiagnosticCode;
import io.barrierscope.exec.FloatFormat.Round;
import io.barrierscope.exec.MmaOp.Elem;
import io.barrierscope.ptx.ScalarType;
import java.util.List;

/**
 * {@code wmma.load}, {@code wmma.store} and {@code wmma.mma} (PTX ISA 9.7.14.4): the warp loads a
 * matrix into fragments, multiplies fragments, and stores one. Modelled: the shapes m16n16k16,
 * m32n8k16 and m8n32k16 with .f16 (f16 or f32 accumulators), .bf16 (f32) and .s8/.u8 (s32,
 * optional .satfinite), and m16n16k8 with .tf32 (f32).
 *
 * <p>The ISA leaves the fragment layout unspecified (9.7.14.4.1): only the register count of each
 * fragment is given. <b>Our layout:</b> a fragment of an R x C matrix holds D = R*C/32 distinct
 * elements per lane; element e of lane l is the matrix element at row-major position l*D + e%D
 * (element e%D again where a fragment has more elements than D: .f16 A and B fragments always
 * have 16, so they repeat). A load, an mma and a store agree on it, so a program that uses
 * fragments only through them, and changes elements only element-wise, gets the bits a GPU gives.
 * Memory: element (r, c) of a .row matrix is at p + (r*stride + c)*size, of a .col matrix at
 * p + (c*stride + r)*size; stride defaults to the leading dimension. The ISA asks each row
 * (column) to start aligned to the fragment's size in bytes; its own default strides break that
 * for short rows (m32n8k16 B, row-major: 16-byte rows, 32-byte fragments), so <b>our reading</b>:
 * p aligned to the fragment size, each row to the fragment size or 16 bytes, whichever is
 * smaller (CUDA's load_matrix_sync: a 256-bit pointer, a 16-byte multiple as stride); lanes giving different p or stride is
 * undefined (9.7.14.4.3): {@code wmma-operand-mismatch}. Products are exact and summed in double
 * precision in k order, rounded once, as for mma.sync ({@link MmaOp}).
 */
final class WmmaOp extends WarpMatrixOp {
    private enum Kind { LOAD, STORE, MMA }

    private final Kind kind;
    private final int m, n, k;
    /** LOAD/STORE: which matrix ('a', 'b', 'c', 'd'), its element type, layout and memory operands. */
    private final char which;
    private final Elem type;
    private final boolean rowMajor;
    private final int space;
    private final Src address;
    private final Src stride;
    /** Fragment registers: LOAD destinations or STORE sources. */
    private final int[] dRegs;
    private final Src[] sRegs;
    /** MMA: types and operands. */
    private final Elem ta, tc, td;
    private final boolean satfinite;
    private final Src[] a, b, c;

    private WmmaOp(CompileContext cc, Kind kind, int[] shape, char which, Elem type, boolean rowMajor, int space, Src address,
            Src stride, int[] dRegs, Src[] sRegs, Elem ta, Elem tc, Elem td, boolean satfinite, Src[] a, Src[] b, Src[] c) {
        super(cc);
        this.kind = kind;
        this.m = shape[0];
        this.n = shape[1];
        this.k = shape[2];
        this.which = which;
        this.type = type;
        this.rowMajor = rowMajor;
        this.space = space;
        this.address = address;
        this.stride = stride;
        this.dRegs = dRegs;
        this.sRegs = sRegs;
        this.ta = ta;
        this.tc = tc;
        this.td = td;
        this.satfinite = satfinite;
        this.a = a;
        this.b = b;
        this.c = c;
    }


    private static int[] shape(CompileContext c) {
        if (c.has(".m16n16k16")) return new int[] {16, 16, 16};
        if (c.has(".m32n8k16")) return new int[] {32, 8, 16};
        if (c.has(".m8n32k16")) return new int[] {8, 32, 16};
        if (c.has(".m16n16k8")) return new int[] {16, 16, 8};
        throw c.unsupported("shapes modelled: m16n16k16, m32n8k16, m8n32k16 and, for .tf32, m16n16k8");
    }

    /** Rows and columns of matrix {@code which}: A is m x k, B k x n, C and D m x n. */
    private static int[] dims(char which, int[] s) {
        return switch (which) {
            case 'a' -> new int[] {s[0], s[2]};
            case 'b' -> new int[] {s[2], s[1]};
            default -> new int[] {s[0], s[1]};
        };
    }

    /** The ISA's register count of a fragment: .f16 A and B fragments always 8 registers, others R*C/32 elements packed in 32 bits. */
    private static int registers(char which, Elem t, int[] s) {
        int[] rc = dims(which, s);
        if (t == Elem.F16 && (which == 'a' || which == 'b')) return 8;
        return rc[0] * rc[1] / 32 / (32 / t.bits);
    }

    static Op compile(CompileContext c) {
        if (!c.has(".sync") || !c.has(".aligned")) throw c.unsupported("wmma needs .sync.aligned");
        int[] s = shape(c);
        if (c.has(".mma")) return compileMma(c, s);
        boolean load = c.has(".load");
        if (!load && !c.has(".store")) throw c.unsupported("wmma.load, wmma.store and wmma.mma are modelled");
        char which = load ? (c.has(".a") ? 'a' : c.has(".b") ? 'b' : c.has(".c") ? 'c' : '?') : (c.has(".d") ? 'd' : '?');
        if (which == '?') throw c.error(c.insn().mnemonic() + (load ? " needs .a, .b or .c" : " needs .d"));
        if (c.has(".satfinite") || c.has(".a") && c.has(".b") || c.has(".c") && (c.has(".a") || c.has(".b"))) {
            throw c.unsupported(".satfinite goes with wmma.mma; a load names one of .a, .b, .c");
        }
        boolean row = c.has(".row");
        if (row == c.has(".col")) throw c.error(c.insn().mnemonic() + " needs one layout, .row or .col");
        List<ScalarType> types = c.types();
        if (types.size() != 1) throw c.error(c.insn().mnemonic() + " needs one element type");
        Elem t = Elem.of("." + types.get(0).name().toLowerCase());
        boolean tf32 = s[2] == 8;
        boolean ok = t != null && switch (which) {
            case 'a', 'b' -> tf32 ? t == Elem.TF32 : t == Elem.F16 || t == Elem.BF16 || t == Elem.S8 || t == Elem.U8;
            default -> tf32 ? t == Elem.F32 : t == Elem.F16 || t == Elem.F32 || t == Elem.S32;
        };
        if (!ok) throw c.unsupported("this shape and type combination is not modelled");
        c.expectOperands(2, 3);
        int regs = registers(which, t, s);
        int space = c.spaceOf() == Space.SHARED ? Space.SHARED : c.spaceOf() == Space.GLOBAL ? Space.GLOBAL : Space.GENERIC;
        Src stride = c.operandCount() == 3 ? c.src(2, ScalarType.U32) : null;
        if (load) {
            int[] d = MmaOp.dsts(c, 0, regs);
            CompileContext.Addr addr = c.address(c.operand(1), space);
            return new WmmaOp(c, Kind.LOAD, s, which, t, row, addr.space(), addr.address(), stride, d, null, null, null, null, false,
                    null, null, null);
        }
        CompileContext.Addr addr = c.address(c.operand(0), space);
        return new WmmaOp(c, Kind.STORE, s, which, t, row, addr.space(), addr.address(), stride, null, MmaOp.srcs(c, 1, regs), null, null,
                null, false, null, null, null);
    }

    private static Op compileMma(CompileContext c, int[] s) {
        List<String> ts = c.insn().modifiers().stream().filter(x -> Elem.of(x) != null).toList();
        Elem ta, td, tc;
        if (ts.size() == 2) {
            // .f16 inputs: wmma.mma...dtype.ctype
            ta = Elem.F16;
            td = Elem.of(ts.get(0));
            tc = Elem.of(ts.get(1));
            if ((td != Elem.F16 && td != Elem.F32) || (tc != Elem.F16 && tc != Elem.F32) || s[2] == 8) {
                throw c.unsupported("this shape and type combination is not modelled");
            }
        } else if (ts.size() == 4) {
            td = Elem.of(ts.get(0));
            ta = Elem.of(ts.get(1));
            tc = Elem.of(ts.get(3));
            boolean ok = Elem.of(ts.get(2)) == ta && switch (ta) {
                case BF16 -> s[2] == 16 && td == Elem.F32 && tc == Elem.F32;
                case TF32 -> s[2] == 8 && td == Elem.F32 && tc == Elem.F32;
                case S8, U8 -> s[2] == 16 && td == Elem.S32 && tc == Elem.S32;
                default -> false;
            };
            if (!ok) throw c.unsupported("this shape and type combination is not modelled");
        } else {
            throw c.error(c.insn().mnemonic() + " needs .dtype.ctype (.f16) or .dtype.atype.btype.ctype");
        }
        // .alayout.blayout are mandatory (9.7.14.4.5); our fragments do not depend on them (class comment).
        if (c.insn().modifiers().stream().filter(x -> x.equals(".row") || x.equals(".col")).count() != 2) {
            throw c.error(c.insn().mnemonic() + " needs two layouts, .alayout.blayout (.row or .col each)");
        }
        boolean sat = c.has(".satfinite");
        if (sat && td != Elem.S32) throw c.unsupported(".satfinite is modelled for integer wmma.mma only");
        c.expectOperands(4, 4);
        int dn = registers('d', td, s);
        int[] d = MmaOp.dsts(c, 0, dn);
        return new WmmaOp(c, Kind.MMA, s, 'd', null, true, 0, null, null, d, null, ta, tc, td, sat, MmaOp.srcs(c, 1, registers('a', ta, s)),
                MmaOp.srcs(c, 2, registers('b', ta, s)), MmaOp.srcs(c, 3, registers('c', tc, s)));
    }

    /** Row and column of fragment element {@code e} of lane {@code l} for an R x C matrix (our layout, class comment). */
    static int[] rowCol(int rows, int cols, int l, int e) {
        int distinct = rows * cols / 32;
        int p = l * distinct + e % distinct;
        return new int[] {p / cols, p % cols};
    }

    @Override
    protected void run(Machine mc, int base) {
        throw new IllegalStateException("run(Interpreter, int) is used");
    }

    @Override
    protected void run(Interpreter x, int base) {
        Machine mc = x.machine();
        if (kind == Kind.MMA) {
            mma(mc, base);
            return;
        }
        int[] rc = dims(which, new int[] {m, n, k});
        int size = type.bits / 8;
        long p = address.get(mc, base);
        long ld = stride != null ? stride.get(mc, base) & 0xFFFFFFFFL : rowMajor ? rc[1] : rc[0];
        for (int l = 1; l < 32; l++) {
            long pl = address.get(mc, base + l);
            long sl = stride != null ? stride.get(mc, base + l) & 0xFFFFFFFFL : ld;
            if (pl != p || sl != ld) {
                x.report(DiagnosticCode.WMMA_OPERAND_MISMATCH, insn.mnemonic() + " at " + x.where(pc) + " in " + mc.warpName(base >> 5)
                        + ": lane " + l + " gives address 0x" + Long.toHexString(pl) + " stride " + sl + ", lane 0 address 0x"
                        + Long.toHexString(p) + " stride " + ld + "; every lane must give the same (PTX ISA 9.7.14.4.3)",
                        new int[] {pc}, new int[] {base + l}, null);
                return;
            }
        }
        long leading = rowMajor ? rc[1] : rc[0];
        if (ld < leading) {
            // 9.7.14.4.3 (wmma.load), 9.7.14.4.4 (wmma.store): a stride below the default is undefined behaviour.
            x.report(DiagnosticCode.WMMA_STRIDE_TOO_SMALL, insn.mnemonic() + " at " + x.where(pc) + " in " + mc.warpName(base >> 5)
                    + ": stride " + ld + " is below the " + (rowMajor ? "row" : "column") + " length " + leading
                    + " of the matrix; rows (columns) would overlap (PTX ISA 9.7.14.4.3-4: undefined)", new int[] {pc}, new int[] {base}, null);
            return;
        }
        int regs = kind == Kind.LOAD ? dRegs.length : sRegs.length;
        long fragBytes = 4L * regs;
        long rowAlign = Math.min(fragBytes, 16);
        if (p % fragBytes != 0 || (ld * size) % rowAlign != 0) {
            throw new MemoryFault(DiagnosticCode.MISALIGNED_ACCESS, p, "matrix at 0x" + Long.toHexString(p) + " with a stride of " + ld
                    + " elements: it must start at a multiple of the fragment's " + fragBytes + " bytes and each "
                    + (rowMajor ? "row" : "column") + " at a multiple of " + rowAlign + " bytes (PTX ISA 9.7.14.4.2)");
        }
        int per = 32 / type.bits;
        if (kind == Kind.LOAD) {
            long[][] out = new long[32][regs];
            for (int l = 0; l < 32; l++) {
                for (int e = 0; e < regs * per; e++) {
                    int[] at = rowCol(rc[0], rc[1], l, e);
                    long addr = p + (rowMajor ? at[0] * ld + at[1] : at[1] * ld + at[0]) * size;
                    long v = mc.memory.load(space, addr, size, base + l);
                    out[l][e / per] |= (v & mask(type)) << (type.bits * (e % per));
                }
            }
            for (int l = 0; l < 32; l++) for (int r = 0; r < regs; r++) if (dRegs[r] >= 0) mc.setReg(base + l, dRegs[r], out[l][r]);
            return;
        }
        for (int l = 0; l < 32; l++) {
            int distinct = rc[0] * rc[1] / 32;
            for (int e = 0; e < distinct; e++) {
                int[] at = rowCol(rc[0], rc[1], l, e);
                long v = sRegs[e / per].get(mc, base + l) >>> (type.bits * (e % per));
                long addr = p + (rowMajor ? at[0] * ld + at[1] : at[1] * ld + at[0]) * size;
                mc.memory.store(space, addr, size, v & mask(type), base + l);
            }
        }
    }

    private static long mask(Elem t) { return (1L << t.bits) - 1; }

    /** The distinct elements of a fragment as a matrix of exact values. */
    private static double[][] matrix(Machine mc, int base, Src[] regs, Elem t, int rows, int cols) {
        double[][] v = new double[rows][cols];
        int per = 32 / t.bits;
        int distinct = rows * cols / 32;
        for (int l = 0; l < 32; l++) {
            for (int e = 0; e < distinct; e++) {
                long w = regs[e / per].get(mc, base + l) >>> (t.bits * (e % per));
                int[] at = rowCol(rows, cols, l, e);
                v[at[0]][at[1]] = t.value(w & mask(t));
            }
        }
        return v;
    }

    private void mma(Machine mc, int base) {
        double[][] fa = matrix(mc, base, a, ta, m, k);
        double[][] fb = matrix(mc, base, b, ta, k, n);
        double[][] fc = matrix(mc, base, c, tc, m, n);
        int per = 32 / td.bits;
        int distinct = m * n / 32;
        long[][] out = new long[32][dRegs.length];
        for (int l = 0; l < 32; l++) {
            for (int e = 0; e < distinct; e++) {
                int[] at = rowCol(m, n, l, e);
                long bits;
                if (td == Elem.S32) {
                    long acc = (long) fc[at[0]][at[1]];
                    for (int j = 0; j < k; j++) acc += (long) fa[at[0]][j] * (long) fb[j][at[1]];
                    if (satfinite) acc = Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, acc));
                    bits = acc & 0xFFFFFFFFL;
                } else {
                    double acc = fc[at[0]][at[1]];
                    for (int j = 0; j < k; j++) acc += fa[at[0]][j] * fb[j][at[1]];
                    bits = td == Elem.F16 ? FloatFormat.F16.encode(acc, Round.RN, false) & 0xFFFFL
                            : FloatFormat.F32.encode(acc, Round.RN, false) & 0xFFFFFFFFL;
                }
                out[l][e / per] |= bits << (td.bits * (e % per));
            }
        }
        for (int l = 0; l < 32; l++) for (int r = 0; r < dRegs.length; r++) if (dRegs[r] >= 0) mc.setReg(base + l, dRegs[r], out[l][r]);
    }
}
